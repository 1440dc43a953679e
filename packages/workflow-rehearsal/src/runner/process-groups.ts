import type { ChildProcess } from "node:child_process";

// A step's process and every process it starts, as one process group (the step is spawned
// detached: its own group, whose id is its pid), so that a timeout, a stop or the job's end reaches
// them all, as a runner ends a step's whole tree and, at the job's end, the processes a step left
// behind ("Cleaning up orphan processes").

/** How long a group gets after SIGINT, and then after SIGTERM, before SIGKILL: within 5 s in all. */
const GRACE_MS = 2_000;

export class ProcessGroups {
  readonly #groups = new Set<number>();

  /** Tracks `child`'s group until `end` or `endAll`. */
  add(child: ChildProcess): void {
    if (child.pid !== undefined) this.#groups.add(child.pid);
  }

  /** Whether any process of the group is still there. */
  static alive(group: number): boolean {
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  }

  static signal(group: number, signal: NodeJS.Signals): void {
    try {
      process.kill(-group, signal);
    } catch {
      // Gone already.
    }
  }

  /** SIGINT, then SIGTERM, then SIGKILL to the group, each after GRACE_MS while any of it is left. */
  async end(group: number): Promise<void> {
    for (const signal of ["SIGINT", "SIGTERM", "SIGKILL"] as const) {
      if (!ProcessGroups.alive(group)) break;
      ProcessGroups.signal(group, signal);
      const until = Date.now() + GRACE_MS;
      while (ProcessGroups.alive(group) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    }
    this.#groups.delete(group);
  }

  /** Ends every group still tracked (the job's end, or a stop). */
  async endAll(): Promise<void> {
    await Promise.all([...this.#groups].map((group) => this.end(group)));
  }

  /** At once and without waiting: the process is exiting. */
  killAll(): void {
    for (const group of this.#groups) ProcessGroups.signal(group, "SIGKILL");
  }
}
