import { setTimeout as delay } from "node:timers/promises";

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) {
    signal?.throwIfAborted();
    return;
  }
  await delay(ms, undefined, signal ? { signal } : undefined);
}
