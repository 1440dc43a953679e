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

/** How far back the account's spending rate is measured. */
const RATE_WINDOW_MS = 5 * 60_000;
const MAX_SAMPLES = 64;
const MAX_BACKGROUND_WAIT_MS = 60_000;

/**
 * The account's request budget as the platform reports it on every response. Knowing it lets the
 * client hold a request until the window resets instead of drawing a 429, and lets pollers and log
 * readers slow down before the budget runs out.
 *
 * The budget is the account's, shared with every other step and process using it: the remaining
 * count falling faster than this client's own requests explain shows how many share it, and the
 * pacing below slows everyone's background reads in proportion, without any of them talking.
 */
export class RateLimitBudget {
  #state: RateLimitState = { limit: undefined, remaining: undefined, resetAt: undefined };
  /** What the platform reported, newest last: the account's spending over time. */
  #reports: Array<{ at: number; remaining: number }> = [];

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
    if (remaining !== undefined) {
      this.#state.remaining = remaining;
      this.#record(now, remaining);
    }
    if (reset !== undefined) this.#state.resetAt = now + reset * 1000;
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
   * The wait before a poll planned `plannedMs` from now. Polls are few and what the user waits on:
   * they keep their plan while more than half the budget is left; then they slow as much as the
   * whole account overspends, and in the last tenth they wait at least for the rest of the window
   * spread over what is left.
   */
  pollInterval(plannedMs: number): number {
    const now = this.clock.now();
    this.#expire(now);
    const { limit, remaining, resetAt } = this.#state;
    if (limit === undefined || remaining === undefined || resetAt === undefined) return plannedMs;
    if (remaining > limit / 2) return plannedMs;
    const paced = plannedMs * this.#slowdown(now);
    if (remaining > limit / 10) return paced;
    return Math.max(paced, (resetAt - now) / Math.max(1, remaining));
  }

  /**
   * The wait before a background read (log streaming) planned `plannedMs` from now: slowed from the
   * start as much as the whole account overspends, so the polls keep their pace; never past a
   * minute, so a stream that slept through a burst still shows lines while the work runs.
   */
  backgroundInterval(plannedMs: number): number {
    const now = this.clock.now();
    const paced = Math.max(plannedMs * this.#slowdown(now), this.pollInterval(plannedMs));
    return Math.min(paced, Math.max(plannedMs, MAX_BACKGROUND_WAIT_MS));
  }

  /** The account's spending rate over the allowed one (remaining over time to reset); at least 1. */
  #slowdown(now: number): number {
    const { remaining, resetAt } = this.#state;
    const first = this.#reports[0];
    const last = this.#reports.at(-1);
    if (remaining === undefined || resetAt === undefined || !first || !last || last.at <= first.at) return 1;
    const spending = (first.remaining - last.remaining) / (last.at - first.at);
    const allowed = Math.max(1, remaining) / Math.max(1, resetAt - now);
    return Math.max(1, spending / allowed);
  }

  #record(now: number, remaining: number): void {
    // More left than before: a new window began, and the old spending says nothing about it.
    const last = this.#reports.at(-1);
    if (last && remaining > last.remaining) this.#reports = [];
    this.#reports.push({ at: now, remaining });
    while (
      this.#reports.length > MAX_SAMPLES ||
      (this.#reports.length > 2 && (this.#reports[0]?.at ?? now) < now - RATE_WINDOW_MS)
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
