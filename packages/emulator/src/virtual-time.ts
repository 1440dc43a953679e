import { setImmediate as nextTurn } from "node:timers/promises";
import { controlPlane } from "./control-client.js";

interface Timer {
  at: number;
  wake(): void;
}

/**
 * A client clock (now, sleep) on an emulator's virtual time (run the emulator at speed 0). Every concurrent loop (a
 * waiter, a log stream) runs as a thread; while any thread is busy (its HTTP requests included)
 * time stands still, and once every thread sleeps, time jumps to the earliest wake-up and the
 * emulator's clock (at speed 0) is advanced by as much. Thirty minutes of polling take as long as
 * the requests do, and every delay is measured exactly on the platform's own clock.
 */
export class VirtualTime {
  #now: number;
  #timers = new Set<Timer>();
  #threads = 0;
  #moving = false;
  readonly #advanceEmulator: (ms: number) => Promise<void>;

  constructor(start: number, advanceEmulator: (ms: number) => Promise<void>) {
    this.#now = start;
    this.#advanceEmulator = advanceEmulator;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#timers.delete(timer);
        reject(signal?.reason);
      };
      const timer: Timer = {
        at: this.#now + Math.max(0, ms),
        wake: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#timers.add(timer);
      this.#settle();
    });
  }

  /** Runs `body` as one more thread: time moves only while every thread sleeps. */
  async thread<T>(body: () => Promise<T>): Promise<T> {
    this.#threads += 1;
    try {
      return await body();
    } finally {
      this.#threads -= 1;
      this.#settle();
    }
  }

  #settle(): void {
    if (this.#moving || this.#threads === 0 || this.#timers.size < this.#threads) return;
    this.#moving = true;
    void this.#advance();
  }

  async #advance(): Promise<void> {
    // Every sleep yields to the event loop, even one that moves no time: a loop that sleeps 0 ms
    // (a wait that polls again at its deadline) would else spin on promises alone, and no timer
    // (a test's timeout) could ever end it.
    await nextTurn();
    // A sleep aborted meanwhile woke its thread: time stands still until every thread sleeps again.
    if (this.#timers.size === 0 || this.#timers.size < this.#threads) {
      this.#moving = false;
      return;
    }
    const next = Math.min(...[...this.#timers].map((t) => t.at));
    if (next > this.#now) {
      await this.#advanceEmulator(next - this.#now);
      this.#now = next;
    }
    this.#moving = false;
    for (const timer of [...this.#timers])
      if (timer.at <= this.#now) {
        this.#timers.delete(timer);
        timer.wake();
      }
  }
}

/** A `VirtualTime` for the emulator at `url`, starting at its clock and moving it through `/_emulator/clock`. */
export async function virtualTimeOf(url: string): Promise<VirtualTime> {
  const control = controlPlane(url);
  const { now } = (await control("GET", "clock")) as { now: string };
  return new VirtualTime(Date.parse(now), async (ms) => {
    await control("POST", "clock", { advanceSeconds: ms / 1000 });
  });
}
