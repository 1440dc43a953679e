// The host-free engine: everything between "inputs read" and "outcome known" (start, history,
// waiting, status lines, log pump, cancellation, abort, outputs), and the input parsers. Nothing
// here imports @actions/*: a host (the GitHub runner, a terminal) is given with `useHost`.
export { type Cancellation, onCancel } from "./engine/cancellation.js";
export { formatDuration } from "./engine/duration.js";
export {
  debug,
  type FailureKind,
  failWith,
  type Host,
  host,
  type LogRecord,
  type Output,
  type OutputValue,
  type OwnReport,
  type Report,
  StepFailure,
  type SummaryRow,
  say,
  typedOutput,
  useHost,
  warn,
} from "./engine/host.js";
export { LogPump, lineText } from "./engine/log-pump.js";
export { getJson } from "./engine/loopback-json.js";
export { OUTPUT, type OutputKind } from "./engine/output-kinds.js";
export { Outputs } from "./engine/outputs.js";
export { emulatorTime, handedClock, PLATFORM_CLOCK, type PlatformTime } from "./engine/platform-clock.js";
export {
  type ActionContext,
  type ActionDefinition,
  defineAction,
  type Finished,
  inputsOf,
  runWork,
  type SharedConfig,
  type StartedWork,
} from "./engine/run-work.js";
export { canBeSecret, mask, maskValues, onMasked, redact } from "./engine/secrets.js";
export { type Recorder, RecordRefused, type StepEnd, type WorkRecord } from "./engine/work-record.js";
export { eventPayload, pullRequestOf, workflowRepository } from "./inputs/event.js";
export { InputError, InputErrors } from "./inputs/input-error.js";
export { type OutputFile, outputDir, outputFile, streamFailure } from "./inputs/output-path.js";
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
  takesLines,
} from "./inputs/parsers.js";
export { checkRequest, type RawInputs, readInputs } from "./inputs/read.js";
export { sharedInputs } from "./inputs/shared.js";
