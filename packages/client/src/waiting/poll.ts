import type { Clock } from "../transport/clock.js";
import { AbortedError, CwpError, TimeoutError, UnexpectedResponseError } from "../transport/errors.js";
import type { RateLimitBudget } from "../transport/rate-limit.js";
import type { Conclusion } from "./conclusions.js";
import { PollSchedule, type PollScheduleOptions } from "./schedule.js";

export interface WaitOptions<T> extends PollScheduleOptions {
  /** How long to wait in all, ms. Default 30 minutes. Ignored when `deadline` is given. */
  timeoutMs?: number;
  /** Epoch ms by which the work must have concluded. */
  deadline?: number;
  signal?: AbortSignal;
  /** Called with the first status seen and on every change. */
  onStatus?: (status: string, resource: T) => void;
  /** Called after every poll, with the latest state. */
  onPoll?: (resource: T) => void;
  /** When the work started (epoch ms), for `expectedDurationsMs`. Default: when the wait begins. */
  startedAt?: number;
  /**
   * Called once for each status the spec does not list that the work reports before it concludes
   * (the platform adds statuses over time). The wait goes on: such a status is never a conclusion
   * by itself. Default: the client's `onWarning`.
   */
  onUnknownStatus?: (status: string, resource: T) => void;
}

/**
 * Answers to a status read that cannot be read (not JSON, `{"data": null}`, a proxy's HTML page
 * with a 200) in a row before the wait gives up on them: one bad answer is read again, a platform
 * that keeps sending them is not.
 */
export const MAX_BAD_ANSWERS = 3;

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

/**
 * Failed status reads in a row, at the end of a wait, from which the platform is what ended it:
 * one or two failures before the deadline are a passing fault, this many are the platform's.
 */
export const PLATFORM_FAULT_READS = 3;

/**
 * The wait ended at its deadline while the platform kept failing the status reads (a 503 to each,
 * no answer): the platform's fault, not a work that ran long. `last` is the latest state read, if
 * any; `failures` counts the failed reads since, by what they got ("503", "no answer").
 */
export class WaitUnreadableError<T = unknown> extends CwpError {
  override name = "WaitUnreadableError";
  constructor(
    message: string,
    readonly last: T | undefined,
    readonly failures: ReadonlyMap<string, number>,
    init: { method: string; path: string; status?: number | undefined },
  ) {
    super(message, init);
  }
}

/** What a failed read got, as a person reads it: its status, or that no answer came. */
const failureOf = (error: unknown) =>
  error instanceof CwpError && error.status !== undefined ? String(error.status) : "no answer";

/** "all 9 of its status reads failed (503 to each)", "its last 5 status reads failed (503 to 4, no answer to 1)". */
function failedReadsText(failures: ReadonlyMap<string, number>, sinceARead: boolean): string {
  const total = [...failures.values()].reduce((a, b) => a + b, 0);
  const got =
    failures.size === 1
      ? `${[...failures.keys()][0]} to ${total === 1 ? "it" : "each"}`
      : [...failures].map(([what, n]) => `${what} to ${n}`).join(", ");
  const which = sinceARead
    ? `its last ${total === 1 ? "status read" : `${total} status reads`}`
    : total === 1
      ? "its only status read"
      : `all ${total} of its status reads`;
  return `${which} failed (${got})`;
}

interface PollSpec<T> {
  what: string;
  /** Reads the current state; receives the deadline so a request never outlives the wait. */
  read: (deadline: number, signal: AbortSignal | undefined) => Promise<T>;
  conclude: (resource: T) => Conclusion;
  rateLimit: RateLimitBudget;
  clock: Clock;
  where: { method: string; path: string };
  /** Where a warning goes when the caller names no handler of its own (the client's `onWarning`). */
  warn: (message: string) => void;
}

/** Errors a poll can see and still try again: the work is still running remotely. */
const isTransient = (error: unknown) =>
  error instanceof CwpError &&
  !(error instanceof AbortedError) &&
  (error.status === undefined || error.status === 429 || error.status === 408 || error.status >= 500);

/**
 * Polls until the work concludes, when the schedule says (see `PollSchedule`), and slower when
 * the rate-limit budget runs low, so a long wait never drains the account's budget.
 */
export async function pollUntilConcluded<T>(spec: PollSpec<T>, options: WaitOptions<T> = {}): Promise<T> {
  const { clock } = spec;
  const deadline = options.deadline ?? clock.now() + (options.timeoutMs ?? 30 * 60_000);
  const schedule = new PollSchedule(options, options.startedAt ?? clock.now(), deadline);
  let last: T | undefined;
  let lastStatus: string | undefined;
  let polled = false;
  let badAnswers = 0;
  /** The reads that failed since the last one that was read, by what they got. */
  const failures = new Map<string, number>();
  let lastFailure: unknown;
  const unknownSeen = new Set<string>();
  for (;;) {
    if (options.signal?.aborted) throw new AbortedError(`waiting for ${spec.what} was aborted`, spec.where);
    const now = clock.now();
    const wait = Math.min(spec.rateLimit.pollInterval(schedule.next(now)), deadline - now);
    if (polled && wait <= 0) {
      const failed = [...failures.values()].reduce((a, b) => a + b, 0);
      if (failed >= PLATFORM_FAULT_READS)
        throw new WaitUnreadableError(
          `${spec.what} could not be read: ${failedReadsText(failures, last !== undefined)} up to the deadline, the platform's fault rather than the work's time`,
          last,
          failures,
          { ...spec.where, status: lastFailure instanceof CwpError ? lastFailure.status : undefined },
        );
      throw new WaitTimeoutError(
        `${spec.what} had not concluded by the deadline (last status ${lastStatus ?? "unknown"})`,
        last,
        spec.where,
      );
    }
    try {
      await clock.sleep(wait, options.signal);
    } catch (cause) {
      throw new AbortedError(`waiting for ${spec.what} was aborted`, { ...spec.where, cause });
    }
    polled = true;
    try {
      last = await spec.read(deadline, options.signal);
      badAnswers = 0;
      failures.clear();
      const conclusion = spec.conclude(last);
      if (conclusion.status !== lastStatus) {
        lastStatus = conclusion.status;
        options.onStatus?.(conclusion.status, last);
      }
      if (conclusion.known === false && !conclusion.concluded && !unknownSeen.has(conclusion.status)) {
        unknownSeen.add(conclusion.status);
        if (options.onUnknownStatus) options.onUnknownStatus(conclusion.status, last);
        else spec.warn(unknownStatusWarning(spec.what, conclusion.status));
      }
      options.onPoll?.(last);
      if (conclusion.concluded) return last;
    } catch (error) {
      if (error instanceof AbortedError || options.signal?.aborted) {
        throw new AbortedError(`waiting for ${spec.what} was aborted`, { ...spec.where, cause: error });
      }
      // A transient failure (or a request refused for the deadline) ends in a WaitTimeoutError
      // above, or a WaitUnreadableError when the reads kept failing up to the deadline.
      if (error instanceof UnexpectedResponseError && ++badAnswers < MAX_BAD_ANSWERS) continue;
      if (!isTransient(error)) throw error;
      // A read the wait's own deadline cut short says nothing of the platform.
      if (error instanceof TimeoutError && clock.now() >= deadline) continue;
      failures.set(failureOf(error), (failures.get(failureOf(error)) ?? 0) + 1);
      lastFailure = error;
    }
  }
}

/** What a wait says of a status the spec does not list, once per status. */
export const unknownStatusWarning = (what: string, status: string) =>
  `${what} reports status ${JSON.stringify(status)}, which the API's documentation does not list: it is not taken as a conclusion, and the wait goes on until the work concludes or the timeout.`;
