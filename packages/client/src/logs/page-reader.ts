import type { LogLine, LogQuery } from "../schemas/observability.js";
import { PageCursor } from "./page-cursor.js";

/** The filters a reader passes through on every page (time and paging are its own). */
export type LogFilters = Pick<
  LogQuery,
  "textIncludes" | "textNotIncludes" | "regexIncludes" | "regexNotIncludes"
>;

/** One page of logs; `signal` stops the read (a streaming reader stopping, a bounded drain). */
export type FetchLogs = (query: LogQuery, signal?: AbortSignal) => Promise<LogLine[]>;

/** The largest page a reader asks for when one timestamp fills a whole page. */
export const MAX_PAGE_SIZE = 10_000;

export interface PageReaderOptions {
  filters: LogFilters;
  direction: "forward" | "backward";
  /** Where reading begins: inclusive going forward, exclusive going backward. */
  from: string;
  /** The far end of the range, if it has one: exclusive going forward, inclusive going backward. */
  to?: string | undefined;
  /** Lines asked for per request. */
  pageSize: number;
  /**
   * Following logs that are still being written: a read ends at the live end, the first short page
   * the reader has no reason to think a cap cut, instead of on a page that brings nothing new. The
   * next read picks up there when there may be something new (see `LogFollower.stream`).
   */
  live?: boolean;
  /**
   * Live, with no far end: the latest time a line may be dated and still move the reader on (epoch
   * ms, asked at every page). A line dated later is handed out, but the next page starts before it.
   */
  horizon?: () => number;
}

/**
 * Pages through logs with range queries, each page starting where the last one ended, without
 * losing or repeating a line (see `PageCursor`), until a page brings nothing new.
 *
 * `lineLimit` is a request, not a promise: the platform may cap a page below it (beyond-the-seed
 * §5), so a short page is not the end of the range. Reading on from the last timestamp costs one
 * request more per read: the page that brings nothing new. When a page brings nothing new but is
 * as large as any the platform has sent, it may be the platform's cap filled by lines that share
 * the cursor's timestamp: the reader reads that timestamp once from the other end, to pick up its
 * last lines, then steps past it. (A run of lines sharing one timestamp longer than twice the cap
 * cannot be reached by range queries at all: its middle is out of reach of any query.)
 *
 * Live, reading on until nothing is new would cost a request per read that can bring nothing, so a
 * short page ends the read unless it may have been cut: the first short page of a length not seen
 * before is read past once, to learn whether the platform cuts pages that long (more lines came at
 * once) or not (nothing came); after that, pages as long as a cut one are read past and shorter
 * ones end the read.
 */
export class PageReader {
  readonly #fetch: FetchLogs;
  readonly #options: PageReaderOptions;
  readonly #cursor: PageCursor;
  readonly #forward: boolean;
  /** The largest page the platform has sent: a page this large may have been cut by its cap. */
  #largest = 0;
  /** Live: the shortest short page that more lines followed at once (the platform cut it). */
  #cut = Number.POSITIVE_INFINITY;
  /** Live: the longest short page that nothing followed at once (it was the live end). */
  #whole = 0;

  constructor(fetch: FetchLogs, options: PageReaderOptions) {
    this.#fetch = fetch;
    this.#options = options;
    this.#forward = options.direction === "forward";
    this.#cursor = new PageCursor(options.from, this.#forward);
  }

  /** Every new line from where the last read ended, page by page, in the reader's direction. */
  async *pages(signal?: AbortSignal): AsyncGenerator<LogLine[]> {
    const { pageSize, to } = this.#options;
    let limit = pageSize;
    /** The length of the short page this read goes past to learn whether it was cut. */
    let probing: number | undefined;
    for (;;) {
      // Forward, pages run from the cursor to the range's end; backward, from its start to the cursor.
      const boundary = this.#cursor.boundary;
      const [startTime, endTime] = this.#forward ? [boundary, to] : [to, boundary];
      const lines = await this.#read(this.#options.direction, limit, startTime, endTime, signal);
      this.#largest = Math.max(this.#largest, lines.length);
      const fresh = this.#cursor.take(lines, this.#far(), lines.length >= limit);
      // The page after a short one answers whether that one was cut: more lines came, or none
      // (at most the cursor timestamp's lines again, fewer than a page the platform has sent).
      if (probing !== undefined && (fresh.length > 0 || lines.length < this.#largest)) {
        if (fresh.length > 0) this.#cut = Math.min(this.#cut, probing);
        else this.#whole = Math.max(this.#whole, probing);
        probing = undefined;
      }
      if (fresh.length > 0) {
        yield fresh;
        if (this.#options.live && lines.length < limit && lines.length < this.#cut) {
          if (lines.length <= this.#whole) return;
          probing = lines.length;
        }
        limit = pageSize;
        continue;
      }
      if (lines.length === 0) return;
      // Nothing new: every line was one already read at the cursor's timestamp.
      if (lines.length >= limit && limit < MAX_PAGE_SIZE) {
        // They fill the page we asked for: ask for a larger one to get past them.
        limit = Math.min(MAX_PAGE_SIZE, limit * 4);
        continue;
      }
      // Fewer than the platform has sent before: it sent all it has from here on.
      if (lines.length < this.#largest) return;
      const tail = await this.#timestampFromTheOtherEnd(limit, signal);
      if (tail.length > 0) yield tail;
      this.#cursor.stepPast();
      limit = pageSize;
    }
  }

  /** The range's far end, epoch ms: its `to`, or live the horizon (none: no end). */
  #far(): number | undefined {
    const { to, horizon } = this.#options;
    return to !== undefined ? Date.parse(to) : horizon?.();
  }

  /** The cursor timestamp's lines read from the other end, those not handed out yet, in order. */
  async #timestampFromTheOtherEnd(limit: number, signal: AbortSignal | undefined): Promise<LogLine[]> {
    const at = Date.parse(this.#cursor.at);
    const lines = await this.#read(
      this.#forward ? "backward" : "forward",
      limit,
      new Date(at).toISOString(),
      new Date(at + 1).toISOString(),
      signal,
    );
    return this.#cursor
      .take(
        lines.filter((l) => Date.parse(l.ts) === at),
        this.#far(),
        false,
      )
      .reverse();
  }

  #read(
    direction: "forward" | "backward",
    limit: number,
    startTime: string | undefined,
    endTime: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<LogLine[]> {
    return this.#fetch(
      {
        ...this.#options.filters,
        queryType: "range",
        direction,
        ...(startTime !== undefined ? { startTime } : {}),
        ...(endTime !== undefined ? { endTime } : {}),
        lineLimit: limit,
      },
      signal,
    );
  }
}
