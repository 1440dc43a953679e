export { startTestPlatform, type TestPlatform } from "./emulated.js";
export { leakedSecrets, parseCommandFile, readActionYml, type RunOptions, type RunResult, runBundle } from "./runner.js";
