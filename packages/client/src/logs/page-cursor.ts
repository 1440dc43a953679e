import type { LogLine } from "../schemas/observability.js";

const lineKey = (line: LogLine) =>
  `${line.containerId}\u0000${typeof line.log === "string" ? line.log : JSON.stringify(line.log)}`;

/**
 * Where a reader stands in time when it pages through logs with range queries. Each page starts at
 * the cursor's timestamp (inclusive), so lines from there on come back again; the cursor hands out
 * exactly the ones it has not handed out yet (a multiset per timestamp), in either direction. Once
 * the reader has every line of the cursor's timestamp it can read, it steps past it.
 *
 * The cursor moves by what the platform paged: to the last line of a page, in the page's order,
 * that lies in the asked range, never to the largest timestamp seen. A line dated outside the range
 * (a clock that ran ahead: a line of 2099 among today's) is handed out once and moves nothing, so
 * it cannot make the reader skip the lines after it; a line out of order inside the range is
 * handed out, and once more only if the platform sends it again past the cursor, never twice.
 */
export class PageCursor {
  #at: string;
  #ms: number;
  /** Whether the next page starts after the cursor timestamp rather than at it. */
  #past: boolean;
  /** Lines handed out at or beyond the cursor, by timestamp: the ones a later page sends again. */
  #handed = new Map<number, Map<string, number>>();
  /** Lines handed out that were dated outside the range asked for, by timestamp and line. */
  #outside = new Set<string>();

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

  /** The timestamp of the last line the cursor moved to (or the start). */
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

  /**
   * The lines of a page not handed out before, in page order. `far` is the range's other end in
   * epoch ms (exclusive going forward, inclusive going backward): lines beyond it are outside.
   * A `full` page (as many lines as asked) of nothing but lines outside still moves the cursor, to
   * its last line: a platform whose every line is dated ahead of us must not hold the reader on
   * one page.
   */
  take(lines: readonly LogLine[], far?: number, full = false): LogLine[] {
    const skip = new Map([...this.#handed].map(([ms, keys]) => [ms, new Map(keys)]));
    const fresh: LogLine[] = [];
    let last: LogLine | undefined;
    for (const line of lines) {
      const ms = Date.parse(line.ts);
      const key = lineKey(line);
      if (!this.#inRange(ms, far)) {
        const outside = `${line.ts}\u0000${key}`;
        if (this.#outside.has(outside)) continue;
        this.#outside.add(outside);
        fresh.push(line);
        continue;
      }
      last = line;
      const left = skip.get(ms)?.get(key) ?? 0;
      if (left > 0) {
        skip.get(ms)?.set(key, left - 1);
        continue;
      }
      const handed = this.#handed.get(ms) ?? new Map<string, number>();
      handed.set(key, (handed.get(key) ?? 0) + 1);
      this.#handed.set(ms, handed);
      fresh.push(line);
    }
    const lastOfPage = lines.at(-1);
    if (last !== undefined) this.#moveTo(last.ts);
    else if (full && lastOfPage !== undefined && !Number.isNaN(Date.parse(lastOfPage.ts)))
      this.#moveTo(lastOfPage.ts);
    return fresh;
  }

  /** Whether `ms` lies between the cursor's page boundary and the range's far end. */
  #inRange(ms: number, far: number | undefined): boolean {
    if (Number.isNaN(ms)) return false;
    if (this.forward) return ms >= this.#ms && (far === undefined || ms < far);
    return ms <= this.#ms && (far === undefined || ms >= far);
  }

  #moveTo(ts: string): void {
    const ms = Date.parse(ts);
    if (ms === this.#ms) return;
    this.#at = ts;
    this.#ms = ms;
    this.#past = false;
    // Lines behind the cursor never come back: only those at or beyond it are kept.
    for (const at of this.#handed.keys()) if (this.forward ? at < ms : at > ms) this.#handed.delete(at);
  }
}
