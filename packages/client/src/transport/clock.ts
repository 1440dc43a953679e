import { setTimeout as delay } from "node:timers/promises";

/**
 * Where the client reads the time and waits. Everything that waits (retries, rate-limit holds,
 * polling, log streaming) goes through one clock, so a simulation can run a thirty-minute wait on
 * an emulator's virtual time in a moment and measure it exactly.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** How many of its milliseconds pass in one of this machine's (a sped-up clock's speed); 1 where not said. */
  readonly speed?: number;
}

/** How long `realMs` of this machine's time is on the clock (a sped-up clock's: `speed` times as long). */
export const clockSpan = (clock: Clock, realMs: number) => realMs * (clock.speed ?? 1);

/** How long `clockMs` of the clock's time is on this machine's: what a timer here waits for it. */
export const realSpan = (clock: Clock, clockMs: number) => clockMs / (clock.speed ?? 1);

/**
 * The clock's time once `realMs` of this machine's have passed: a bound that is this machine's
 * time (the runner's 7.5 s after a cancel) as a deadline on the clock.
 */
export const clockTimeAfter = (clock: Clock, realMs: number) => clock.now() + clockSpan(clock, realMs);

export const systemClock: Clock = {
  now: () => Date.now(),
  async sleep(ms, signal) {
    if (ms <= 0) {
      signal?.throwIfAborted();
      return;
    }
    await delay(ms, undefined, signal ? { signal } : undefined);
  },
};

/**
 * Time `speed` times faster than this machine's, standing at `at` (epoch ms) when this machine's
 * stood at `realAt`: the time of an emulator run sped up (`cwp rehearse` runs our steps on it, so a
 * ten-minute build times out under `timeout: 5m` as on the platform). Its waits take 1/speed as long.
 */
export function spedUpClock({ at, realAt, speed }: { at: number; realAt: number; speed: number }): Clock {
  if (!(speed > 0)) throw new Error(`a sped-up clock needs a speed above 0 (got ${speed})`);
  return {
    speed,
    now: () => at + (Date.now() - realAt) * speed,
    sleep: (ms, signal) => systemClock.sleep(ms / speed, signal),
  };
}
