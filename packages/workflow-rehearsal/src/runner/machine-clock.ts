// What a process the rehearsal starts (a `run:` step, one of our steps) keeps of the machine's
// environment besides PATH: its clock. It gets a chosen environment, never the whole of the user's
// (their tokens and settings stay theirs), but it runs on the same machine as the rehearsal, so it
// tells the same time, as a runner's steps and the runner do. Its time zone is a hosted runner's,
// UTC, whatever this machine's: `date +%Y-%m-01` in a script near midnight gives the day GitHub's
// would. A workflow's `env: TZ` (the step's env, laid over this) chooses another, as it does on
// GitHub. (Our steps count the platform's time besides, which the rehearsal hands them: the
// emulator's runs faster.)

/**
 * The variables that decide what time a process sees: libfaketime's (`LD_PRELOAD`, which loads it
 * into every process that keeps it, and its `FAKETIME*` settings, the shared start among them), so
 * that a rehearsal run under `faketime` is one clock, not two; and `TZ`, a hosted runner's.
 */
export function machineClock(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const kept: Record<string, string> = { TZ: "UTC" };
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && (name === "LD_PRELOAD" || name.startsWith("FAKETIME"))) kept[name] = value;
  return kept;
}
