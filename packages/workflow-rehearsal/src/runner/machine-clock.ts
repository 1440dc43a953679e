// What a process the rehearsal starts (a `run:` step, one of our steps) keeps of the machine's
// environment besides PATH: its clock. It gets a chosen environment, never the whole of the user's
// (their tokens and settings stay theirs), but it runs on the same machine as the rehearsal, so it
// tells the same time in the same zone, as a runner's steps and the runner do. (Our steps count
// the platform's time besides, which the rehearsal hands them: the emulator's runs faster.)

/**
 * The variables that decide what time a process sees: `TZ`, and libfaketime's (`LD_PRELOAD`, which
 * loads it into every process that keeps it, and its `FAKETIME*` settings, the shared start among
 * them), so that a rehearsal run under `faketime` is one clock, not two.
 */
export function machineClock(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && (name === "TZ" || name === "LD_PRELOAD" || name.startsWith("FAKETIME")))
      kept[name] = value;
  return kept;
}
