// What a runner does to a `run:` step, in one place: the workspace, HOME and temporary folders it
// runs in, its process group and timeout, the workflow commands in its output, the files it hands
// on, and the masks on everything printed.

export {
  ActionDownloader,
  type ActionDownloaderOptions,
  type DownloadedAction,
  type RemoteUses,
  remoteUses,
} from "./action-download.js";
export { type CheckoutRunnerOptions, checkoutRunner } from "./checkout.js";
export {
  EnvFileError,
  fileCommandText,
  prependPath,
  readEnvFile,
  readGithubEnv,
  readGithubPath,
} from "./file-commands.js";
export { machineClock } from "./machine-clock.js";
export { machineNetwork, NETWORK_VARIABLES } from "./machine-network.js";
export { Masks } from "./masks.js";
export { nodeWarnings } from "./node-runtime.js";
export { ProcessGroups } from "./process-groups.js";
export { type RunnerSlot, takeRunnerSlot } from "./runner-slot.js";
export { type ScriptRunnerOptions, scriptRunner } from "./step-host.js";
export { StepOutput } from "./workflow-commands.js";
export {
  freshJobFolders,
  type JobFolders,
  prepareRunnerFolders,
  type RunnerFolders,
  removeRunnerTemp,
} from "./workspace.js";
