/** Requests per account per window; the window resets one hour after its first request. */
export class RateLimiter {
  #windows = new Map<string, { start: number; used: number }>();

  constructor(
    readonly limit: number,
    private readonly now: () => number,
  ) {}

  /** Counts a request; returns the headers to send and whether it is allowed. */
  take(account: string): { allowed: boolean; headers: Record<string, string> } {
    const now = this.now();
    let window = this.#windows.get(account);
    if (!window || now >= window.start + 3_600_000) {
      window = { start: now, used: 0 };
      this.#windows.set(account, window);
    }
    const allowed = window.used < this.limit;
    if (allowed) window.used += 1;
    return {
      allowed,
      headers: {
        "x-ratelimit-limit": String(this.limit),
        "x-ratelimit-remaining": String(this.limit - window.used),
        "x-ratelimit-reset": String(Math.max(0, Math.ceil((window.start + 3_600_000 - now) / 1000))),
      },
    };
  }

  reset(): void {
    this.#windows.clear();
  }
}
