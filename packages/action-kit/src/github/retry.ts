import type { GitHubRefusal, GitHubUnreached } from "./errors.js";

// When a GitHub call is tried again, as GitHub's docs ask ("Rate limits for the REST API",
// "Best practices"): a primary rate limit waits for `x-ratelimit-reset`, a secondary one for
// `retry-after` or else a minute, a 5xx or a failed connection backs off exponentially.

/** What bounds a GitHub call: given as Octokit's `request` option on every call. */
export interface GitHubBudget {
  /** The step's cancel. */
  signal: AbortSignal;
  /** Epoch ms: no attempt, wait or retry goes past it. */
  deadline: number;
  /**
   * The call creates something (a deployment, a comment, an issue): after a 5xx GitHub may have
   * made it, so it is tried again only where GitHub cannot have acted (a rate limit).
   */
  creates?: boolean;
}

/** A secondary rate limit without `retry-after`: "wait for at least one minute before retrying". */
const SECONDARY_WAIT_MS = 60_000;
const BACKOFF_BASE_MS = 1000;

/** How long to wait before trying again, or undefined: the failure stands. */
export function retryDelay(
  failure: GitHubRefusal | GitHubUnreached,
  attempt: number,
  options: { creates: boolean; retries: number },
): number | undefined {
  if (attempt >= options.retries) return undefined;
  // A creation that may have reached GitHub is looked for, not sent again (deployment-record.ts).
  if (!("status" in failure)) return options.creates && !failure.neverSent ? undefined : backoff(attempt);
  if (failure.rateLimited) {
    const after = failure.retryAfterMs;
    if (after !== undefined) return after;
    const resetsAt = failure.resetsAt;
    if (failure.headers["x-ratelimit-remaining"] === "0" && resetsAt !== undefined)
      return Math.max(0, resetsAt - Date.now()) + 1000;
    return SECONDARY_WAIT_MS;
  }
  if (failure.status >= 500 && !options.creates) return backoff(attempt);
  return undefined;
}

/** Exponential backoff with full jitter: 0-1 s, 0-2 s, 0-4 s. */
const backoff = (attempt: number) => Math.random() * BACKOFF_BASE_MS * 2 ** attempt;
