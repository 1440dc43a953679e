import { describe, expect, it } from "vitest";
import { clockTimeAfter, spedUpClock, systemClock } from "../src/index.js";

// A clock on an emulator's sped-up time (what `cwp rehearse` runs our steps on): it stands where
// the emulator's stood at a moment of this machine's, moves `speed` times as fast, and its waits
// take 1/speed of this machine's time.

describe("spedUpClock", () => {
  const at = Date.parse("2026-12-02T10:00:00Z");

  it("stands at `at` when this machine's clock stood at `realAt`, and runs `speed` times as fast", () => {
    const realAt = Date.now() - 2000;
    const clock = spedUpClock({ at, realAt, speed: 60 });
    const elapsed = clock.now() - at;
    // Two seconds (and what this test took since) of this machine's: two minutes and more of its.
    expect(elapsed).toBeGreaterThanOrEqual(120_000);
    expect(elapsed).toBeLessThan(120_000 + (Date.now() - realAt - 2000 + 1) * 60);
  });

  it("waits 1/speed as long: ten minutes of its time at 1000× take 600 ms here", async () => {
    const clock = spedUpClock({ at, realAt: Date.now(), speed: 1000 });
    const before = clock.now();
    const real = performance.now();
    await clock.sleep(600_000);
    expect(clock.now() - before).toBeGreaterThanOrEqual(600_000 - 1000);
    // Not ten minutes of this machine's: however loaded, far less.
    expect(performance.now() - real).toBeLessThan(60_000);
  });

  it("ends a wait at the signal's abort", async () => {
    const clock = spedUpClock({ at, realAt: Date.now(), speed: 2 });
    const abort = new AbortController();
    const waiting = clock.sleep(3_600_000, abort.signal);
    abort.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow();
  });

  it("refuses a speed of 0 or less, which would stop its time or run it backwards", () => {
    expect(() => spedUpClock({ at, realAt: Date.now(), speed: 0 })).toThrow(/speed above 0/);
  });

  it("says when a span of this machine's time ends on it (clockTimeAfter), the system clock's 1:1", () => {
    const clock = spedUpClock({ at, realAt: Date.now(), speed: 60 });
    const end = clockTimeAfter(clock, 5000);
    expect(end - clock.now()).toBeGreaterThan(5000 * 60 - 1000);
    expect(end - clock.now()).toBeLessThanOrEqual(5000 * 60);
    const system = clockTimeAfter(systemClock, 5000) - Date.now();
    expect(system).toBeGreaterThanOrEqual(4990);
    expect(system).toBeLessThanOrEqual(5000);
  });
});
