export { madeUp, type RehearsalEvent } from "./contexts.js";
export {
  condition,
  evaluate,
  type Scope,
  SetByScript,
  type StatusFunctions,
  UnknownValue,
} from "./expressions.js";
export { type EventFacts, runsFor, type Verdict } from "./filters.js";
export { closest, jobFindings, stepLabel, unexpectedInputs } from "./findings.js";
export { MAX_DEPTH, MAX_VALUES } from "./hostile-yaml.js";
export { needsEntry } from "./job/needs.js";
export { rehearseJob, runName } from "./job/plan-job.js";
export { type Combination, expandMatrix, MAX_MATRIX_JOBS } from "./matrix.js";
export { type ActionShape, OUR_ACTIONS, ourAction } from "./our-actions.js";
export type {
  CheckoutStep,
  JobRecord,
  JobResult,
  OurStep,
  RehearsalOptions,
  ScriptResult,
  ScriptStep,
  StepRecord,
  StepResult,
} from "./records.js";
export * from "./runner/index.js";
export { type KeptArtifact, type ResultsService, startResultsService } from "./services/results-service.js";
export {
  type Job,
  jobOf,
  jobOrder,
  neededBy,
  readWorkflow,
  type Step,
  triggersOf,
  type Workflow,
  WorkflowError,
} from "./workflow.js";
