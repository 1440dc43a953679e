// How a GitHub call fails: refused (with GitHub's status, message and rate-limit headers), not
// reached, or out of the step's time. None holds the request, whose headers carry the token.

/**
 * The longest a rate limit of GitHub's lasts (its window is an hour): a `x-ratelimit-reset` or
 * `retry-after` further off, negative or not a number is nonsense, read as "not said".
 */
const LONGEST_LIMIT_MS = 3_660_000;

/** GitHub answered a call with an error status; `reason` is its own `message`. */
export class GitHubRefusal extends Error {
  constructor(
    readonly route: string,
    readonly status: number,
    readonly reason: string,
    /** The answer's headers (rate-limit and retry-after), lower-cased. */
    readonly headers: Record<string, string> = {},
  ) {
    super(`GitHub ${route} answered ${status}: ${reason}`);
  }

  /**
   * GitHub's rate limit, primary or secondary, as its docs tell them: 429, or 403 with the budget
   * spent, a `retry-after`, or a message that says so. Never a missing permission.
   */
  get rateLimited(): boolean {
    if (this.status === 429) return true;
    return (
      this.status === 403 &&
      (this.headers["x-ratelimit-remaining"] === "0" ||
        this.headers["retry-after"] !== undefined ||
        /rate limit/i.test(this.reason))
    );
  }

  /** When the limit lifts (epoch ms), where GitHub said so sensibly (within the hour). */
  get resetsAt(): number | undefined {
    const at = Number(this.headers["x-ratelimit-reset"]) * 1000;
    return Number.isFinite(at) && at > 0 && at - Date.now() <= LONGEST_LIMIT_MS ? at : undefined;
  }

  /** How long `retry-after` asks to wait (ms), where it says so sensibly (0 to an hour). */
  get retryAfterMs(): number | undefined {
    const value = this.headers["retry-after"];
    const ms = value === undefined || value.trim() === "" ? Number.NaN : Number(value) * 1000;
    return Number.isFinite(ms) && ms >= 0 && ms <= LONGEST_LIMIT_MS ? ms : undefined;
  }

  /** The refusal as a person reads it: a rate limit names when it lifts. */
  get told(): string {
    if (!this.rateLimited) return `${this.status}: ${this.reason}`;
    const at = this.resetsAt;
    return `${this.status}: GitHub's rate limit for the github-token${at ? ` until ${new Date(at).toISOString()}` : ""} (${this.reason})`;
  }
}

/** GitHub did not answer: the connection failed. */
export class GitHubUnreached extends Error {
  constructor(
    readonly route: string,
    reason: string,
    /** It failed before the request left (no address, refused): GitHub cannot have acted on it. */
    readonly neverSent = false,
  ) {
    super(`GitHub ${route} could not be reached: ${reason}`);
  }
}

/** The step's deadline passed before GitHub answered. */
export class GitHubTimeout extends Error {
  constructor(readonly route: string) {
    super(`GitHub ${route} did not answer within the step's time`);
  }
}

/**
 * Whether GitHub may have made what a creation asked for although its answer was lost: a 5xx, a
 * connection that broke, or no answer while the step still had time. What may exist is looked
 * for before it is created again (deployments by their mark, comments by the report's marker).
 */
export function answerLost(error: unknown, budget: { signal: AbortSignal; deadline: number }): boolean {
  if (budget.signal.aborted || Date.now() >= budget.deadline) return false;
  if (error instanceof GitHubRefusal) return error.status >= 500;
  return (error instanceof GitHubUnreached && !error.neverSent) || error instanceof GitHubTimeout;
}

/** Creations tried in all when GitHub's answers are lost, each after looking for what it made. */
export const CREATE_ATTEMPTS = 3;
