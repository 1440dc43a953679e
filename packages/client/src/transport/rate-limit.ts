import type { IncomingHttpHeaders } from "node:http";

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
 * The account's request budget as the platform reports it on every response. Knowing it lets the
 * client hold a request until the window resets instead of drawing a 429, and lets pollers slow
 * down before the budget runs out.
 */
export class RateLimitBudget {
  #state: RateLimitState = { limit: undefined, remaining: undefined, resetAt: undefined };

  get state(): RateLimitState {
    this.#expire(Date.now());
    return { ...this.#state };
  }

  update(headers: IncomingHttpHeaders, now = Date.now()): void {
    const limit = headerNumber(headers, "x-ratelimit-limit");
    const remaining = headerNumber(headers, "x-ratelimit-remaining");
    const reset = headerNumber(headers, "x-ratelimit-reset");
    if (limit !== undefined) this.#state.limit = limit;
    if (remaining !== undefined) this.#state.remaining = remaining;
    if (reset !== undefined) this.#state.resetAt = now + reset * 1000;
  }

  /** Milliseconds to hold the next request so it does not spend a budget that is already gone. */
  delayBeforeSend(now = Date.now()): number {
    this.#expire(now);
    const { remaining, resetAt } = this.#state;
    return remaining !== undefined && remaining <= 0 && resetAt !== undefined ? resetAt - now : 0;
  }

  /** Counts a request about to be sent, so that concurrent requests see the budget shrink. */
  take(): void {
    if (this.#state.remaining !== undefined) this.#state.remaining = Math.max(0, this.#state.remaining - 1);
  }

  #expire(now: number): void {
    if (this.#state.resetAt !== undefined && now >= this.#state.resetAt) {
      this.#state = { limit: this.#state.limit, remaining: undefined, resetAt: undefined };
    }
  }
}
