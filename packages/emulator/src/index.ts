export { type EmulatorOptions, type RunningEmulator, startEmulator } from "./server.js";
export type { WorldScale } from "./world.js";
