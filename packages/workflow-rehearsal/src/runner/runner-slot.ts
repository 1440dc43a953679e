import { readFileSync, unlinkSync } from "node:fs";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

// A repository's runner folders at the same paths in every rehearsal, as every GitHub runner of a
// kind has the same HOME and workspace (/home/runner, /home/runner/work/<repo>/<repo>):
// @actions/cache hashes a cache's paths into its version, so a cache saved under HOME (npm's
// ~/.npm, pip's ~/.cache/pip) is restored only where HOME is the same path. A rehearsal holds its
// slot (`<base>/<n>`) from its first job to its end; another rehearsal of the repository at the same
// time takes the next free slot, whose paths differ, and says so. A slot whose holder died without
// letting go (SIGKILL, a power cut) is taken over: its lock names a process that no longer runs.

/** No repository is rehearsed this many times at once; a bound on the search, not a queue. */
const MOST_SLOTS = 64;

export interface RunnerSlot {
  /** The slot's folder: the runner folders (work/, home) go under it. */
  folder: string;
  /** 1 for the repository's usual folders; more when other rehearsals held the ones before. */
  number: number;
  /** The slots passed over, with the process of this machine that holds each. */
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
    // Written whole, then linked: a lock is never seen empty, and link() fails if one exists.
    const mine = `${lock}.${me.pid}`;
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
    const letGo = () => {
      process.off("exit", letGoNow);
      return unlink(lock).catch(() => {});
    };
    // As the process exits (process.exit on a second Ctrl-C among the ways): synchronously.
    const letGoNow = () => {
      try {
        if (readHolder.sync(lock)?.pid === me.pid) unlinkSync(lock);
      } catch {}
    };
    process.once("exit", letGoNow);
    return { folder: join(base, String(number)), number, busy, release: letGo };
  }
  throw new Error(`${MOST_SLOTS} rehearsals of this repository hold a runner slot in ${base}: none is free`);
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
