export { type Contexts, condition, evaluate, interpolate, type StatusFunctions } from "./expressions.js";
export { closest, jobFindings } from "./findings.js";
export { type ActionShape, OUR_ACTIONS, ourAction } from "./our-actions.js";
export {
  type JobRecord,
  type OurStep,
  type RehearsalEvent,
  type RehearsalOptions,
  rehearseJob,
  type StepRecord,
  type StepResult,
} from "./rehearse.js";
export {
  type Job,
  jobOrder,
  readWorkflow,
  type Step,
  stepName,
  triggersOf,
  type Workflow,
  WorkflowError,
} from "./workflow.js";
