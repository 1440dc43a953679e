export { eventPayload } from "./inputs/event.js";
export { InputError, InputErrors } from "./inputs/input-error.js";
export {
  booleanInput,
  choiceInput,
  durationInput,
  integerInput,
  keyValueInput,
  objectInput,
  optionalResourceIdInput,
  optionalText,
  requiredText,
  resourceIdInput,
} from "./inputs/parsers.js";
export { checkRequest, readInputs } from "./inputs/read.js";
export { sharedInputs } from "./inputs/shared.js";
export { formatDuration } from "./output/duration.js";
export { canBeSecret, mask, maskValues, redact } from "./output/mask.js";
export { Outputs } from "./output/outputs.js";
export { renderSummary, type SummaryReport, writeSummary } from "./output/summary.js";
export {
  escapeCell,
  escapeHtml,
  failWith,
  inert,
  lineText,
  printUntrusted,
  say,
  warn,
} from "./output/untrusted.js";
export {
  type ActionContext,
  type ActionDefinition,
  type Finished,
  runAction,
  type StartedWork,
} from "./run/run-action.js";
