export { type EmulatorOptions, type RunningEmulator, startEmulator } from "./server.js";
