import { type Clock, spedUpClock, systemClock } from "@cwp/client";

// The platform's time, handed to each of our steps `cwp rehearse` runs: the emulator runs faster
// than real time (60× by default), and a step that counted this machine's time would give a
// ten-minute build twenty-five minutes under `timeout: 5m`, plan its polls from the history's
// platform durations in real seconds, and read logs of "the last 5 minutes" hours before the
// platform's now. So a step's clock is the emulator's: it says where the emulator's time stood at
// a moment of this machine's, and how fast it runs.

/** The variable a rehearsed step finds its clock in (JSON: `{ at, realAt, speed }`). */
export const REHEARSAL_CLOCK = "CWP_REHEARSAL_CLOCK";

/** Where a platform's time stood (`at`, epoch ms) when this machine's stood at `realAt`, and its speed. */
export interface PlatformTime {
  at: number;
  realAt: number;
  speed: number;
}

/** The clock a step runs on: the rehearsal's platform time where it was handed one, else this machine's. */
export function stepClock(env: NodeJS.ProcessEnv = process.env): Clock {
  const text = env[REHEARSAL_CLOCK];
  if (text === undefined) return systemClock;
  const time = JSON.parse(text) as Partial<PlatformTime>;
  const { at, realAt, speed } = time;
  if (![at, realAt, speed].every((n) => typeof n === "number" && Number.isFinite(n)))
    throw new Error(`${REHEARSAL_CLOCK} must be a JSON object of numbers at, realAt and speed`);
  return spedUpClock(time as PlatformTime);
}
