import type { IncomingHttpHeaders } from "node:http";
import type { Clock } from "./clock.js";

export interface RateLimitState {
  /** Requests allowed per window (`x-ratelimit-limit`). */
  limit: number | undefined;
  /** Requests left in this window, as last reported and counted down locally since. */
  remaining: number | undefined;
  /** When the window resets, in epoch milliseconds. */
  resetAt: number | undefined;
}

const headerNumber = (headers: IncomingHttpHeaders, name: string): number | undefined => {
  const raw = headers[name];
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  return raw === undefined || Number.isNaN(value) ? undefined : value;
};

/**
 * How far back this client's requests are compared with the account's: the last 16 reports, at
 * most 5 minutes, so that a share follows others finishing within a few requests.
 */
const SHARE_WINDOW_MS = 5 * 60_000;
const MAX_REPORTS = 16;
/**
 * The budget left is planned to be spent by this share of the time to the reset. The work waited
 * on now is certain and what comes later is not (most of it ends well before an hour), so the
 * plan spends more while it runs; the allowance still falls with what is left, so the budget
 * never runs out before the reset, whoever else spends it.
 */
const SPEND_BY = 0.4;
/**
 * Background reads (log streaming) may spend this share of what polls may: alone on an account of
 * 1000 requests an hour, a read every 10 s at most.
 */
const BACKGROUND_SHARE = 0.15;
/** A report whose reset is this much later than the last one's starts a new window. */
const NEW_WINDOW_MS = 2_000;

interface Report {
  at: number;
  remaining: number;
  resetAt: number | undefined;
  /** This client's responses so far, this one included. */
  own: number;
}

/**
 * The account's request budget as the platform reports it on every response. Knowing it lets the
 * client hold a request until the window resets instead of drawing a 429, and lets pollers and log
 * readers pace themselves so that the budget lasts.
 *
 * The budget is the account's, shared with every other step and process using it, none of which
 * talk. The remaining count falling by more than this client's own requests shows its share of the
 * account's spending; each client allows itself that share of what the account may spend (the
 * budget left over 40% of the time to the reset), so together they spend what the account may,
 * each in proportion to what it was spending.
 */
export class RateLimitBudget {
  #state: RateLimitState = { limit: undefined, remaining: undefined, resetAt: undefined };
  /** What the platform reported to this client, newest last. */
  #reports: Report[] = [];
  #own = 0;

  constructor(private readonly clock: Clock) {}

  get state(): RateLimitState {
    this.#expire(this.clock.now());
    return { ...this.#state };
  }

  update(headers: IncomingHttpHeaders): void {
    const now = this.clock.now();
    const limit = headerNumber(headers, "x-ratelimit-limit");
    const remaining = headerNumber(headers, "x-ratelimit-remaining");
    const reset = headerNumber(headers, "x-ratelimit-reset");
    if (limit !== undefined) this.#state.limit = limit;
    if (reset !== undefined) this.#state.resetAt = now + reset * 1000;
    if (remaining !== undefined) {
      this.#state.remaining = remaining;
      this.#record(now, remaining, reset === undefined ? undefined : this.#state.resetAt);
    }
  }

  /** Milliseconds to hold the next request so it does not spend a budget that is already gone. */
  delayBeforeSend(): number {
    const now = this.clock.now();
    this.#expire(now);
    const { remaining, resetAt } = this.#state;
    return remaining !== undefined && remaining <= 0 && resetAt !== undefined ? resetAt - now : 0;
  }

  /** Counts a request about to be sent, so that concurrent requests see the budget shrink. */
  take(): void {
    if (this.#state.remaining !== undefined) this.#state.remaining = Math.max(0, this.#state.remaining - 1);
  }

  /**
   * The wait before a poll planned `plannedMs` from now: the plan, unless this client's share of
   * the budget allows fewer requests than that (see `RateLimitBudget`). A poll planned at once (the
   * first, to see work that ended or failed as it started) goes at once: one request is nothing to
   * the account's hour, and the pace holds from the next.
   */
  pollInterval(plannedMs: number): number {
    return plannedMs <= 0 ? 0 : Math.max(plannedMs, this.#fairInterval());
  }

  /**
   * The wait before a background read (log streaming) planned `plannedMs` from now: the plan,
   * unless a quarter of what polls may spend allows fewer, so that polls, which the user waits
   * on, keep their pace.
   */
  backgroundInterval(plannedMs: number): number {
    return Math.max(plannedMs, this.#fairInterval() / BACKGROUND_SHARE);
  }

  /** The least time between this client's requests that keeps its share within the budget, ms. */
  #fairInterval(): number {
    const now = this.clock.now();
    this.#expire(now);
    const { remaining, resetAt } = this.#state;
    if (remaining === undefined || resetAt === undefined) return 0;
    const toReset = Math.max(1, resetAt - now);
    const allowance = (this.#share() * remaining) / (SPEND_BY * toReset);
    return allowance > 0 ? 1 / allowance : toReset;
  }

  /**
   * This client's share of the account's spending over the last minutes, from counts (a burst of
   * requests at the start says nothing about a rate): 1 while it knows of no other spender.
   */
  #share(): number {
    const first = this.#reports[0];
    const last = this.#reports.at(-1);
    if (!first || !last || first === last) return 1;
    const account = first.remaining - last.remaining;
    const own = last.own - first.own;
    return account > 0 && own > 0 ? Math.min(1, own / account) : 1;
  }

  #record(now: number, remaining: number, resetAt: number | undefined): void {
    this.#own += 1;
    // A reset later than the last one's: a new window began, and the old spending says nothing of
    // it. (Answers to requests under way at once may come back out of order within a window.)
    const last = this.#reports.at(-1);
    if (last?.resetAt !== undefined && resetAt !== undefined && resetAt > last.resetAt + NEW_WINDOW_MS)
      this.#reports = [];
    this.#reports.push({ at: now, remaining, resetAt, own: this.#own });
    while (
      this.#reports.length > MAX_REPORTS ||
      (this.#reports.length > 2 && (this.#reports[0]?.at ?? now) < now - SHARE_WINDOW_MS)
    )
      this.#reports.shift();
  }

  #expire(now: number): void {
    if (this.#state.resetAt !== undefined && now >= this.#state.resetAt) {
      this.#state = { limit: this.#state.limit, remaining: undefined, resetAt: undefined };
      this.#reports = [];
    }
  }
}
