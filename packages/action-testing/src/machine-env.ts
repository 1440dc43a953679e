import { machineClock } from "@cwp/workflow-rehearsal";

// What a process a test starts keeps of the machine's environment, besides what the test gives it:
// a chosen environment, never the whole of the test's, so that nothing of the developer's shell
// decides a result; but PATH, and the clock the suite runs on (`pnpm test:at` runs a package's
// tests under libfaketime), as the rehearsal hands them to its steps: a child on another clock
// than its test would disagree with the emulator about "today".

export { machineClock };

/** `PATH` and the machine's clock (`machineClock`: TZ, LD_PRELOAD, FAKETIME*). */
export function machineEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { PATH: env.PATH ?? "", ...machineClock(env) };
}
