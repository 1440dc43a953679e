import type { UnknownValue } from "../expressions.js";
import type { Combination } from "../matrix.js";
import type { JobRecord, JobResult, StepResult } from "../records.js";

// The record of a job (or a call of a reusable workflow) that did not run its steps: skipped by
// its if:, failed before a step (a finding), or not rehearsed.

/** Which job, as its record names it. */
export interface JobNamed {
  id: string;
  /** As GitHub shows it. */
  job: string;
  matrix?: Combination;
}

export function notRan<R extends StepResult>(
  named: JobNamed,
  findings: readonly string[],
  result: JobResult,
  reason: string,
  more: Partial<JobRecord<R>> = {},
): JobRecord<R> {
  return {
    ...named,
    outputs: {},
    steps: [],
    ran: false,
    result,
    success: result !== "failure" && findings.length === 0,
    findings: [...findings],
    reason,
    ...more,
  };
}

/** Neither run nor skipped on a guess: a value only a step not run sets decides it on GitHub. */
export const decidedByUnknown = <R extends StepResult>(
  named: JobNamed,
  findings: readonly string[],
  what: string,
  error: UnknownValue,
): JobRecord<R> =>
  notRan(named, findings, "success", `its ${what} reads a value ${error.message}`, { notRehearsed: true });
