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
}

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
