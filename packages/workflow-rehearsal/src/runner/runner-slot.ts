import { randomUUID } from "node:crypto";
import { readFileSync, unlinkSync } from "node:fs";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

// A repository's runner folders at the same paths in every rehearsal, as every GitHub runner of a
// kind has the same HOME and workspace (/home/runner, /home/runner/work/<repo>/<repo>):
// @actions/cache hashes a cache's paths into its version, so a cache saved under HOME (npm's
// ~/.npm, pip's ~/.cache/pip) is restored only where HOME is the same path. A job run holds a slot
// (`<base>/<n>`) from its start to its end, the first free one: slot 1, unless a job beside it
// (jobs side by side) or another rehearsal of the repository holds it. A slot whose holder died
// without letting go (SIGKILL, a power cut) is taken over: its lock names a process that no longer
// runs.

/** No repository has this many jobs rehearsed at once; a bound on the search, not a queue. */
const MOST_SLOTS = 64;

export interface RunnerSlot {
  /** The slot's folder: the runner folders (work/, home) go under it. */
  folder: string;
  /** 1 for the repository's usual folders; more when other jobs or rehearsals held the ones before. */
  number: number;
  /** The slots passed over, with the process that holds each (this one's, for a job beside). */
  busy: Array<{ number: number; pid: number }>;
  /** Lets the slot go (also done as the process exits, however it exits but SIGKILL). */
  release(): Promise<void>;
}

interface Holder {
  pid: number;
  host: string;
}

/** Takes the first free slot under `base` (the repository's folder of slots). */
export async function takeRunnerSlot(base: string): Promise<RunnerSlot> {
  await mkdir(base, { recursive: true });
  const busy: RunnerSlot["busy"] = [];
  const me: Holder = { pid: process.pid, host: hostname() };
  for (let number = 1; number <= MOST_SLOTS; ) {
    const lock = join(base, `${number}.lock`);
    // Written whole, then linked: a lock is never seen empty, and link() fails if one exists. The
    // file linked is this attempt's own (jobs side by side take slots in one process).
    const mine = `${lock}.${me.pid}.${randomUUID()}`;
    await writeFile(mine, JSON.stringify(me), { mode: 0o600 });
    try {
      await link(mine, lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = await readHolder(lock);
      if (holder !== undefined && !isGone(holder)) {
        busy.push({ number, pid: holder.pid });
        number++;
      } else await unlink(lock).catch(() => {});
      continue;
    } finally {
      await unlink(mine).catch(() => {});
    }
    held.add(lock);
    letGoAtExit();
    const release = async () => {
      held.delete(lock);
      await unlink(lock).catch(() => {});
    };
    return { folder: join(base, String(number)), number, busy, release };
  }
  throw new Error(`${MOST_SLOTS} jobs of this repository hold a runner slot in ${base}: none is free`);
}

/** The locks this process holds, let go as it exits (process.exit on a second Ctrl-C among the ways). */
const held = new Set<string>();
let lettingGoAtExit = false;
function letGoAtExit(): void {
  if (lettingGoAtExit) return;
  lettingGoAtExit = true;
  process.once("exit", () => {
    for (const lock of held)
      try {
        if (readHolder.sync(lock)?.pid === process.pid) unlinkSync(lock);
      } catch {
        // Gone already: nothing to let go.
      }
  });
}

/** Who holds a lock; undefined for one gone this instant or not a lock of ours (taken as gone). */
async function readHolder(lock: string): Promise<Holder | undefined> {
  return parseHolder(await readFile(lock, "utf8").catch(() => ""));
}
readHolder.sync = (lock: string) => parseHolder(readFileSync(lock, "utf8"));

function parseHolder(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    return typeof value.pid === "number" && typeof value.host === "string"
      ? { pid: value.pid, host: value.host }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the holder's process has ended; one of another machine (a shared home) is never taken as gone. */
function isGone(holder: Holder): boolean {
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
