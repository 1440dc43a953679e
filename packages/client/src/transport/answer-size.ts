import { type CwpErrorInit, UnexpectedResponseError } from "./errors.js";

/**
 * The most a whole-body answer (a status read, a page, an error) may hold. Beyond it the request
 * fails at once and is not retried: a 1.5 GB answer to a status read must not take the step's
 * memory with it. Reads that stream (usage lists) fold their bodies as they arrive instead.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** "answered 200 with an answer too large (2 GB; one answer may hold 32 MB)"; `what` may be a part. */
export function tooLargeError(
  at: CwpErrorInit & { status: number },
  size: string,
  what = "answer",
): UnexpectedResponseError {
  return new UnexpectedResponseError(
    `${at.method} ${at.path} answered ${at.status} with ${/^[aeiou]/.test(what) ? "an" : "a"} ${what} too large (${size}; one ${what} may hold ${megabytes(MAX_ANSWER_BYTES)})`,
    at,
  );
}
