export { type ArrowPruning, arrowPruning, type PruningFilter, withoutColumnOrders } from "./arrow-pruning.js";
export { type ContractHarness, contractHarness, runnerContract, runnerOutputContract } from "./contract.js";
export type { ContractSpec } from "./contract-spec.js";
export { deploymentContract } from "./deployment-contract.js";
export { startTestPlatform, type TestPlatform, type TestPlatformOptions } from "./emulated.js";
export { type ForwardProxy, startForwardProxy } from "./forward-proxy.js";
export type { ActionRepository } from "./github/action-repositories.js";
export type { Author, Deployment, DeploymentState, DeploymentStatus } from "./github/objects.js";
export { latestState } from "./github/objects.js";
export {
  APP_BOT,
  APP_TOKEN,
  type Fault,
  MAIN_SHA,
  PERSON,
  PERSONAL_TOKEN,
  READ_ONLY_TOKEN,
  type StandIn,
  type StandInOptions,
  startGitHubStandIn,
  WORKFLOW_BOT,
} from "./github/stand-in.js";
export { useGitHubStandIn } from "./github/use-stand-in.js";
export { sendHugeAnswer } from "./huge-answer.js";
export { machineClock, machineEnv } from "./machine-env.js";
export { oddAnswersContract } from "./odd-answers-contract.js";
export { olderNodeOnPath } from "./older-node.js";
export { startOtherSite } from "./other-site.js";
export {
  leakedSecrets,
  type RunOptions,
  type RunResult,
  readActionYml,
  runBundle,
} from "./runner.js";
export { RunnerLog } from "./runner-log.js";
export { type HarnessPlatform, harnessPlatform, useTestPlatform } from "./use-platform.js";
export { type ActedCommand, actedCommands, forgedCommands } from "./workflow-commands.js";
