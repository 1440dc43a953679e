import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator, type VirtualTime, virtualTimeOf } from "../src/index.js";

// The two ways to a client clock on the emulator's virtual time: through its control plane (from
// anywhere) and in this process (emulator.virtualTime(), what the benchmarks use). Both move the
// emulator's own clock by what their threads slept, and nothing moves while a thread is busy.

let emulator: RunningEmulator;
beforeEach(async () => {
  emulator = await startEmulator({ port: 0, speed: 0 });
});
afterEach(() => emulator.close());

const emulatorNow = async () =>
  Date.parse(((await (await fetch(`${emulator.url}/_emulator/clock`)).json()) as { now: string }).now);

describe.each([
  ["virtualTimeOf(url)", () => virtualTimeOf(emulator.url)],
  ["emulator.virtualTime()", async () => emulator.virtualTime()],
] as Array<[string, () => Promise<VirtualTime>]>)("%s", (_, clockOf) => {
  it("starts at the emulator's time and moves it by exactly what every thread slept", async () => {
    const started = await emulatorNow();
    const time = await clockOf();
    expect(time.now()).toBe(started);
    const woke: number[] = [];
    await Promise.all([
      time.thread(async () => {
        await time.sleep(600_000);
        woke.push(await emulatorNow());
      }),
      time.thread(async () => {
        await time.sleep(60_000);
        woke.push(await emulatorNow());
        await time.sleep(60_000);
        woke.push(await emulatorNow());
      }),
    ]);
    expect(woke).toEqual([started + 60_000, started + 120_000, started + 600_000]);
    expect(time.now()).toBe(started + 600_000);
  });
});
