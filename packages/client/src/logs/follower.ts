import type { LogLine, LogQuery } from "../schemas/observability.js";

/** The filters a follower passes through on every page (time and paging are its own). */
export type LogFilters = Pick<
  LogQuery,
  "textIncludes" | "textNotIncludes" | "regexIncludes" | "regexNotIncludes"
>;

export interface LogFollowerOptions extends LogFilters {
  /** Where to start (ISO 8601), inclusive. */
  startTime: string;
  /** Lines per request. Default 500. */
  pageSize?: number;
}

type FetchLogs = (query: LogQuery) => Promise<LogLine[]>;

const MAX_PAGE_SIZE = 10_000;
const lineKey = (line: LogLine) =>
  `${line.containerId}\u0000${typeof line.log === "string" ? line.log : JSON.stringify(line.log)}`;

/**
 * Reads logs forward with range queries, page after page, without losing or repeating a line.
 *
 * Each page starts at the timestamp of the last line read (start times are inclusive), so lines
 * sharing that timestamp come back again; the follower skips exactly as many of each as it has
 * already handed out. A page full of one timestamp is read again with a larger page rather than
 * stall.
 */
export class LogFollower {
  readonly #fetch: FetchLogs;
  readonly #filters: LogFilters;
  readonly #pageSize: number;
  #cursor: string;
  /** How many times each line was already returned at the cursor timestamp. */
  #seenAtCursor = new Map<string, number>();

  constructor(fetch: FetchLogs, options: LogFollowerOptions) {
    this.#fetch = fetch;
    const { startTime, pageSize, ...filters } = options;
    this.#filters = filters;
    this.#cursor = startTime;
    this.#pageSize = pageSize ?? 500;
  }

  /** Every line written since the last call, oldest first. */
  async next(): Promise<LogLine[]> {
    const out: LogLine[] = [];
    let limit = this.#pageSize;
    for (;;) {
      const lines = await this.#fetch({
        ...this.#filters,
        queryType: "range",
        direction: "forward",
        startTime: this.#cursor,
        lineLimit: limit,
      });
      const fresh = this.#take(lines);
      out.push(...fresh);
      if (lines.length < limit) return out;
      if (fresh.length === 0) {
        // A whole page of one timestamp, all seen: widen the page to get past it.
        if (limit >= MAX_PAGE_SIZE) return out;
        limit = Math.min(MAX_PAGE_SIZE, limit * 4);
      } else {
        limit = this.#pageSize;
      }
    }
  }

  #take(lines: LogLine[]): LogLine[] {
    const skip = new Map(this.#seenAtCursor);
    const fresh: LogLine[] = [];
    for (const line of lines) {
      if (Date.parse(line.ts) < Date.parse(this.#cursor)) continue; // older than where we are
      if (line.ts === this.#cursor) {
        const key = lineKey(line);
        const left = skip.get(key) ?? 0;
        if (left > 0) {
          skip.set(key, left - 1);
          continue;
        }
      }
      if (line.ts !== this.#cursor) {
        this.#cursor = line.ts;
        this.#seenAtCursor = new Map();
      }
      const key = lineKey(line);
      this.#seenAtCursor.set(key, (this.#seenAtCursor.get(key) ?? 0) + 1);
      fresh.push(line);
    }
    return fresh;
  }
}
