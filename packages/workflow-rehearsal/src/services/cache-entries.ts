import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

// A repository's caches, as GitHub's cache service keeps them for @actions/cache: entries by key
// and version (the paths and compression the library hashes), each in the scope of the ref whose
// run saved it. A key already saved in a scope is kept, never overwritten (the first save wins). A
// restore looks in the run's ref, then the default branch's: the key exactly, then the newest
// entry whose key starts with the key or, in order, a restore key ("Caching dependencies to speed
// up workflows", Matching a cache key). Kept in a folder that outlives the rehearsal.

export interface CacheEntry {
  id: number;
  key: string;
  version: string;
  /** The ref of the run that saved it: refs/heads/main. */
  scope: string;
  size: number;
  createdAt: string;
  committed: boolean;
  /** Its archive's file name in the folder. */
  file: string;
}

export class CacheEntries {
  #entries: CacheEntry[] = [];

  private constructor(readonly folder: string) {}

  static async open(folder: string): Promise<CacheEntries> {
    await mkdir(folder, { recursive: true });
    const entries = new CacheEntries(folder);
    const text = await readFile(join(folder, "index.json"), "utf8").catch(() => "[]");
    entries.#entries = (JSON.parse(text) as CacheEntry[]).filter((e) => e.committed);
    return entries;
  }

  fileOf(entry: CacheEntry): string {
    return join(this.folder, entry.file);
  }

  /** A new entry to upload, or undefined where the scope has the key and version already. */
  reserve(key: string, version: string, scope: string): CacheEntry | undefined {
    const taken = this.#entries.some((e) => e.key === key && e.version === version && e.scope === scope);
    if (taken) return undefined;
    const id = Math.max(0, ...this.#entries.map((e) => e.id)) + 1;
    const entry: CacheEntry = {
      id,
      key,
      version,
      scope,
      size: 0,
      createdAt: new Date().toISOString(),
      committed: false,
      file: `${id}.tar`,
    };
    this.#entries.push(entry);
    return entry;
  }

  /** An entry being uploaded, by its id (the v1 REST form names it so). */
  pendingById(id: number): CacheEntry | undefined {
    return this.#entries.find((e) => !e.committed && e.id === id);
  }

  pending(key: string, version: string, scope: string): CacheEntry | undefined {
    return this.#entries.find(
      (e) => !e.committed && e.key === key && e.version === version && e.scope === scope,
    );
  }

  async commit(entry: CacheEntry, size: number): Promise<void> {
    Object.assign(entry, { committed: true, size });
    const partial = join(this.folder, `index.json.${randomUUID()}`);
    await writeFile(
      partial,
      JSON.stringify(
        this.#entries.filter((e) => e.committed),
        null,
        2,
      ),
    );
    await rename(partial, join(this.folder, "index.json"));
  }

  /** The entry a restore of `keys` (the key, then the restore keys) finds, looking in `scopes` in order. */
  find(keys: string[], version: string, scopes: string[]): CacheEntry | undefined {
    for (const scope of scopes) {
      const candidates = this.#entries
        .filter((e) => e.committed && e.version === version && e.scope === scope)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
      const exact = candidates.find((e) => e.key === keys[0]);
      if (exact) return exact;
      for (const prefix of keys) {
        const found = candidates.find((e) => e.key.startsWith(prefix));
        if (found) return found;
      }
    }
    return undefined;
  }
}
