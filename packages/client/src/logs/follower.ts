import type { LogLine, LogQuery } from "../schemas/observability.js";
import { PageCursor } from "./page-cursor.js";

/** The filters a reader passes through on every page (time and paging are its own). */
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

export type FetchLogs = (query: LogQuery) => Promise<LogLine[]>;

/** The largest page a reader asks for when one timestamp fills a whole page. */
export const MAX_PAGE_SIZE = 10_000;

/**
 * Reads logs forward with range queries, page after page, without losing or repeating a line
 * (see `PageCursor`). A page full of one timestamp is read again with a larger page rather than
 * stall.
 */
export class LogFollower {
  readonly #fetch: FetchLogs;
  readonly #filters: LogFilters;
  readonly #pageSize: number;
  readonly #cursor: PageCursor;

  constructor(fetch: FetchLogs, options: LogFollowerOptions) {
    this.#fetch = fetch;
    const { startTime, pageSize, ...filters } = options;
    this.#filters = filters;
    this.#cursor = new PageCursor(startTime, true);
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
        startTime: this.#cursor.at,
        lineLimit: limit,
      });
      const fresh = this.#cursor.take(lines);
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
}
