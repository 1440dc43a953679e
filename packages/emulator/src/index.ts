export { emulatorMain } from "./cli.js";
export { EMULATOR_OPTIONS } from "./cli-options.js";
export { controlPlane } from "./control-client.js";
export type { WorldScale } from "./model/world.js";
export { parseWorldFile, type WorldFile, WorldFileError } from "./model/world-file.js";
export { type EmulatorOptions, IDLE_CONNECTION_MS, type RunningEmulator, startEmulator } from "./server.js";
export { VirtualTime, virtualTimeOf } from "./virtual-time.js";
