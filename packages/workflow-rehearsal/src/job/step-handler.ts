import type { Scope } from "../expressions.js";
import type { StepRecord, StepResult } from "../records.js";
import type { Step } from "../workflow.js";
import type { JobRun, StepsFrame } from "./job-run.js";

// What every step kind is given, as the runner's handlers are (actions/runner
// src/Runner.Worker/Handlers): the job's run, the steps it stands among, the step, its record.

export interface StepRun<R extends StepResult> {
  job: JobRun<R>;
  frame: StepsFrame;
  step: Step;
  /** Its record: the handler says what kind of step it ran, with what, and what came of it. */
  record: StepRecord<R>;
  /** Its name as the log shows it. */
  label: string;
  /** What its expressions read: the contexts, its own env evaluated, the step-level status functions. */
  scope: Scope;
  /** Its `github` context (github.action is its id). */
  github: Record<string, unknown>;
  /** Runs a composite action's steps, in the same loop as the job's. */
  runSteps(frame: StepsFrame): Promise<void>;
}

/** A step kind: runs (or reads) the step and gives its result; undefined where it did not run it. */
export type StepHandler = <R extends StepResult>(run: StepRun<R>) => Promise<StepResult | undefined>;
