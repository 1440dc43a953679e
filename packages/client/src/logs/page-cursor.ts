import type { LogLine } from "../schemas/observability.js";

const lineKey = (line: LogLine) =>
  `${line.containerId}\u0000${typeof line.log === "string" ? line.log : JSON.stringify(line.log)}`;

/**
 * Where a reader stands in time when it pages through logs with range queries. Each page starts at
 * the timestamp of the last line read (inclusive), so lines sharing that timestamp come back again;
 * the cursor hands out exactly the ones it has not handed out yet (a multiset per timestamp), in
 * either direction. Once the reader has every line of that timestamp it can read, it steps past it.
 */
export class PageCursor {
  #at: string;
  #ms: number;
  /** Whether the next page starts after the cursor timestamp rather than at it. */
  #past: boolean;
  /** How many times each line was already handed out at the cursor timestamp. */
  #seen = new Map<string, number>();

  /**
   * `start` is where reading begins: inclusive going forward (a range's start), exclusive going
   * backward (a range's end).
   */
  constructor(
    start: string,
    private readonly forward: boolean,
  ) {
    this.#at = start;
    this.#ms = Date.parse(start);
    this.#past = !forward;
  }

  /** The timestamp of the last line handed out (or the start). */
  get at(): string {
    return this.#at;
  }

  /**
   * Where the next page begins: forward, its `startTime` (inclusive); backward, its `endTime`
   * (exclusive), just after the cursor timestamp so that timestamp's remaining lines come back.
   */
  get boundary(): string {
    if (this.forward) return this.#past ? new Date(this.#ms + 1).toISOString() : this.#at;
    return this.#past ? this.#at : new Date(this.#ms + 1).toISOString();
  }

  /** No more lines of the cursor timestamp can be read: the next page starts beyond it. */
  stepPast(): void {
    this.#past = true;
  }

  /** The lines of a page not handed out before, in page order. */
  take(lines: readonly LogLine[]): LogLine[] {
    const skip = new Map(this.#seen);
    const fresh: LogLine[] = [];
    for (const line of lines) {
      const ms = Date.parse(line.ts);
      if (this.forward ? ms < this.#ms : ms > this.#ms) continue; // behind where we are
      const key = lineKey(line);
      if (ms === this.#ms) {
        const left = skip.get(key) ?? 0;
        if (left > 0) {
          skip.set(key, left - 1);
          continue;
        }
      } else {
        this.#at = line.ts;
        this.#ms = ms;
        this.#past = false;
        this.#seen = new Map();
      }
      this.#seen.set(key, (this.#seen.get(key) ?? 0) + 1);
      fresh.push(line);
    }
    return fresh;
  }
}
