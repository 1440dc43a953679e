import { AbortedError, CwpError, TimeoutError } from "../transport/errors.js";
import type { RateLimitState } from "../transport/rate-limit.js";
import { sleep } from "../transport/sleep.js";
import type { Conclusion } from "./conclusions.js";

export interface WaitOptions<T> {
  /** How long to wait in all, ms. Default 30 minutes. Ignored when `deadline` is given. */
  timeoutMs?: number;
  /** Epoch ms by which the work must have concluded. */
  deadline?: number;
  signal?: AbortSignal;
  /** Called with the first status seen and on every change. */
  onStatus?: (status: string, resource: T) => void;
  /** Called after every poll, with the latest state. */
  onPoll?: (resource: T) => void;
  /** First poll interval and the cap it backs off to, ms. Defaults 1 000 and 15 000. */
  initialIntervalMs?: number;
  maxIntervalMs?: number;
}

/** The waiter's deadline passed before the work concluded; `last` is the latest state seen. */
export class WaitTimeoutError<T = unknown> extends TimeoutError {
  override name = "WaitTimeoutError";
  constructor(
    message: string,
    readonly last: T | undefined,
    init: { method: string; path: string },
  ) {
    super(message, init);
  }
}

interface PollSpec<T> {
  what: string;
  /** Reads the current state; receives the deadline so a request never outlives the wait. */
  read: (deadline: number, signal: AbortSignal | undefined) => Promise<T>;
  conclude: (resource: T) => Conclusion;
  rateLimit: () => RateLimitState;
  where: { method: string; path: string };
}

/** Errors a poll can see and still try again: the work is still running remotely. */
const isTransient = (error: unknown) =>
  error instanceof CwpError &&
  !(error instanceof AbortedError) &&
  (error.status === undefined || error.status === 429 || error.status === 408 || error.status >= 500);

/**
 * Polls until the work concludes: fast at first, backing off by half each time to a cap, and slower
 * still when the rate-limit budget runs low, so a long wait never drains the account's budget.
 */
export async function pollUntilConcluded<T>(spec: PollSpec<T>, options: WaitOptions<T> = {}): Promise<T> {
  const deadline = options.deadline ?? Date.now() + (options.timeoutMs ?? 30 * 60_000);
  const maxInterval = options.maxIntervalMs ?? 15_000;
  let interval = options.initialIntervalMs ?? 1_000;
  let last: T | undefined;
  let lastStatus: string | undefined;
  for (;;) {
    if (options.signal?.aborted) throw new AbortedError(`waiting for ${spec.what} was aborted`, spec.where);
    try {
      last = await spec.read(deadline, options.signal);
      const conclusion = spec.conclude(last);
      if (conclusion.status !== lastStatus) {
        lastStatus = conclusion.status;
        options.onStatus?.(conclusion.status, last);
      }
      options.onPoll?.(last);
      if (conclusion.concluded) return last;
    } catch (error) {
      if (error instanceof AbortedError || options.signal?.aborted) {
        throw new AbortedError(`waiting for ${spec.what} was aborted`, { ...spec.where, cause: error });
      }
      // A transient failure (or a request refused for the deadline) ends in a WaitTimeoutError below.
      if (!isTransient(error)) throw error;
    }
    const wait = Math.min(slowForBudget(interval, spec.rateLimit()), deadline - Date.now());
    if (wait <= 0) {
      throw new WaitTimeoutError(
        `${spec.what} had not concluded by the deadline (last status ${lastStatus ?? "unknown"})`,
        last,
        spec.where,
      );
    }
    try {
      await sleep(wait, options.signal);
    } catch (cause) {
      throw new AbortedError(`waiting for ${spec.what} was aborted`, { ...spec.where, cause });
    }
    interval = Math.min(maxInterval, interval * 1.5);
  }
}

/** Below a tenth of the budget, spread the remaining requests over what is left of the window. */
function slowForBudget(interval: number, budget: RateLimitState): number {
  const { limit, remaining, resetAt } = budget;
  if (limit === undefined || remaining === undefined || resetAt === undefined) return interval;
  if (remaining > limit / 10) return interval;
  return Math.max(interval, (resetAt - Date.now()) / Math.max(1, remaining));
}
