import type { LogLine } from "../schemas/observability.js";
import { type Clock, systemClock } from "../transport/clock.js";
import type { RateLimitBudget } from "../transport/rate-limit.js";
import { type FetchLogs, type LogFilters, PageReader } from "./page-reader.js";

export interface LogFollowerOptions extends LogFilters {
  /** Where to start (ISO 8601), inclusive. */
  startTime: string;
  /** Lines per request. Default 500. */
  pageSize?: number;
}

/** Where a streaming follower reads the time and the account's budget (the client's transport). */
export interface LogPacing {
  clock: Clock;
  rateLimit?: RateLimitBudget;
  /** The platform's time as its answers say it (the client's transport); default `clock`'s. */
  platformNow?: () => number;
}

/**
 * How far past now (the later of this machine's clock and the platform's) a line may be dated and
 * still count as written: a line dated further ahead is shown, but reading goes on from the lines
 * before it (see `PageCursor`).
 */
export const LOG_CLOCK_SKEW_MS = 60_000;

export interface LogStreamOptions {
  /** Streaming stops when it aborts, a read under way with it. */
  signal: AbortSignal;
  onLines(lines: LogLine[]): void;
  /** A failed read; streaming goes on. */
  onError(error: unknown): void;
  /**
   * Hands over a function that ends the pause between reads at once and reads now, its back-off
   * reset: for a caller that learns lines are likely (the work's status changed).
   */
  onWake?(wake: () => void): void;
}

/**
 * Between reads while lines come, and the cap it backs off to while none do, ms: a line is shown
 * within 8 s of being written, where the budget allows.
 */
const STREAM_INTERVAL_MS = 2_000;
const STREAM_MAX_INTERVAL_MS = 8_000;

/**
 * Reads logs forward with range queries, page after page, without losing or repeating a line, up
 * to the live end (see `PageReader`).
 */
export class LogFollower {
  readonly #reader: PageReader;
  readonly #pacing: LogPacing;

  constructor(fetch: FetchLogs, options: LogFollowerOptions, pacing: LogPacing = { clock: systemClock }) {
    this.#pacing = pacing;
    const { startTime, pageSize, ...filters } = options;
    this.#reader = new PageReader(fetch, {
      filters,
      direction: "forward",
      from: startTime,
      pageSize: pageSize ?? 500,
      live: true,
      horizon: () =>
        Math.max(pacing.clock.now(), pacing.platformNow?.() ?? Number.NEGATIVE_INFINITY) + LOG_CLOCK_SKEW_MS,
    });
  }

  /**
   * The lines written since the last call, oldest first, up to the live end; `signal` stops the
   * read; a stop or a failed read after some pages still hands those over (the next call meets it).
   * Once the work has ended, call it until it returns none to have every line.
   */
  async next(signal?: AbortSignal): Promise<LogLine[]> {
    const out: LogLine[] = [];
    try {
      for await (const page of this.#reader.pages(signal)) out.push(...page);
    } catch (error) {
      // The pages read before a stop or a failed read are behind the reader's cursor already:
      // handed over now, or never. What stopped the read stops the next call, if it lasts.
      if (out.length === 0) throw error;
    }
    return out;
  }

  /**
   * Reads on until the signal aborts, handing each batch of new lines over: every 2 s while lines
   * come, backing off to 8 s while none do (and at once when woken, `onWake`), and no more often than a quarter of what this client's
   * share of the account's budget allows its polls (`RateLimitBudget.backgroundInterval`), so
   * streaming never costs the waits their pace or a 429.
   */
  async stream(options: LogStreamOptions): Promise<void> {
    const { clock, rateLimit } = this.#pacing;
    let interval = STREAM_INTERVAL_MS;
    let nap = new AbortController();
    options.onWake?.(() => nap.abort());
    while (!options.signal.aborted) {
      let fresh = 0;
      try {
        const lines = await this.next(options.signal);
        fresh = lines.length;
        if (fresh > 0) options.onLines(lines);
      } catch (error) {
        if (options.signal.aborted) return;
        options.onError(error);
      }
      interval = fresh > 0 ? STREAM_INTERVAL_MS : Math.min(STREAM_MAX_INTERVAL_MS, interval * 1.5);
      try {
        await clock.sleep(
          rateLimit ? rateLimit.backgroundInterval(interval) : interval,
          AbortSignal.any([options.signal, nap.signal]),
        );
      } catch {
        if (options.signal.aborted) return;
        // Woken: read now, and at the fast pace again.
        nap = new AbortController();
        interval = STREAM_INTERVAL_MS;
      }
    }
  }
}
