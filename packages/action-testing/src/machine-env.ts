import { tmpdir } from "node:os";
import { join } from "node:path";
import { machineClock } from "@cwp/workflow-rehearsal";

// What a process a test starts keeps of the machine's environment, besides what the test gives it:
// a chosen environment, never the whole of the test's, so that nothing of the developer's shell
// decides a result; but PATH, and the clock the suite runs on (`pnpm test:at` runs a package's
// tests under libfaketime), as the rehearsal hands them to its steps: a child on another clock
// than its test would disagree with the emulator about "today".

export { machineClock };

/**
 * Where the processes tests start keep V8's compiled code (Node's NODE_COMPILE_CACHE): the suite
 * starts the same bundles and CLI some two thousand times, and each start compiled 3 MB of
 * JavaScript again (about 15% of a bundle's start). What a process does is the same with it.
 */
const COMPILE_CACHE = join(tmpdir(), "cwp-tests-compile-cache");

/** `PATH`, the machine's clock (`machineClock`: TZ, LD_PRELOAD, FAKETIME*) and a compile cache. */
export function machineEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { PATH: env.PATH ?? "", NODE_COMPILE_CACHE: COMPILE_CACHE, ...machineClock(env) };
}
