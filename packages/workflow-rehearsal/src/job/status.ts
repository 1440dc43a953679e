import { type Scope, type StatusFunctions, tokenValue } from "../expressions.js";
import type { Step } from "../workflow.js";

// The status functions (success(), failure(), always(), cancelled()) for every place an `if:` or a
// value is read: a job's (its chain of needs), its steps' (the job's result so far), a composite
// action's steps' (the action's so far), and what is read after the steps (outputs, names).

/**
 * Status functions where `failed` says whether what they stand for failed. Once the run is
 * cancelled, cancelled() is true and success() and failure() are false: the job's status is then
 * `cancelled` ("Expressions", status check functions), so only `always()` and `cancelled()` steps run.
 */
export function statusOf({
  failed,
  succeeded = () => !failed(),
  cancelled = () => false,
}: {
  failed: () => boolean;
  /** Where success is not simply "not failed" (a job's: every job up its chain of needs succeeded). */
  succeeded?: () => boolean;
  cancelled?: () => boolean;
}): StatusFunctions {
  return {
    success: () => !cancelled() && succeeded(),
    failure: () => !cancelled() && failed(),
    always: () => true,
    cancelled,
  };
}

/** For what is read after the steps (outputs, names): every step counts as passed. */
export const ALWAYS: StatusFunctions = statusOf({ failed: () => false });

/** Whether a step (or job) goes on after it fails: `continue-on-error`, a boolean or an expression. */
export function continues(step: Pick<Step, "continueOnError">, scope: Scope): boolean {
  const value = step.continueOnError;
  if (value === undefined) return false;
  if (typeof value === "boolean") return value;
  const evaluated = tokenValue(value, scope);
  return evaluated === true || evaluated === "true";
}
