import { describe, expect, it } from "vitest";
import { PollSchedule } from "../src/index.js";
import { typicalDurations } from "../src/waiting/schedule.js";

/** The poll times (ms after the start) a schedule gives until `until`. */
function pollTimes(schedule: PollSchedule, until: number): number[] {
  const times: number[] = [];
  for (let now = 0; ; ) {
    now += schedule.next(now);
    if (now > until) return times;
    times.push(now);
  }
}

const MINUTE = 60_000;

describe("poll schedule", () => {
  it("without history polls at once, then backs off by half to a 10 s cap", () => {
    const times = pollTimes(new PollSchedule({}, 0), 60_000);
    expect(times.slice(0, 4)).toEqual([0, 1_000, 2_500, 4_750]);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    expect(Math.max(...gaps)).toBe(10_000);
  });

  it("needs three earlier durations to plan", () => {
    expect(pollTimes(new PollSchedule({ expectedDurationsMs: [MINUTE, MINUTE] }, 0), 5_000)[0]).toBe(0);
  });

  it("with history spends at most 14 polls up to 20% past the median, gathered where the runs ended", () => {
    const history = [28, 29, 29.5, 30, 30, 30.5, 31, 32].map((m) => m * MINUTE);
    const times = pollTimes(new PollSchedule({ expectedDurationsMs: history }, 0), 36 * MINUTE);
    expect(times[0]).toBeGreaterThan(0);
    expect(times.length).toBeLessThanOrEqual(14);
    expect(times.at(-1)).toBeCloseTo(36 * MINUTE, -3);
    const inside = times.filter((t) => t >= 28 * MINUTE && t <= 32 * MINUTE).length;
    const outside = times.filter((t) => t > 24 * MINUTE && (t < 28 * MINUTE || t > 32 * MINUTE)).length;
    expect(inside).toBeGreaterThan(outside);
  });

  it("measures from when the work started, and backs off again once past the plan", () => {
    // Started 50 s ago: times below are since the start.
    const schedule = new PollSchedule({ expectedDurationsMs: [60_000, 61_000, 62_000] }, -50_000);
    const times = pollTimes(schedule, 150_000).map((t) => t + 50_000);
    expect(times[0]).toBeGreaterThanOrEqual(48_000);
    expect(times.filter((t) => t <= 61_000 * 1.2 + 1).at(-1)).toBeCloseTo(61_000 * 1.2, -2);
    const pastPlan = times.filter((t) => t > 61_000 * 1.2 + 1);
    expect((pastPlan[0] as number) - 61_000 * 1.2).toBeCloseTo(1_000, -1);
    const late = times.filter((t) => t > 130_000);
    expect(late.slice(1).map((t, i) => t - (late[i] as number))).toEqual(late.slice(1).map(() => 10_000));
  });

  it("leaves out an outlier: one build of 72 hours among builds of 3 seconds plans around 3 seconds", () => {
    const history = [...Array.from({ length: 19 }, (_, i) => 2_900 + i * 10), 72 * 3600_000];
    expect(typicalDurations(history)).toHaveLength(19);
    const times = pollTimes(new PollSchedule({ expectedDurationsMs: history }, 0, 40_000), 40_000);
    // Polled within a few seconds, and never a gap the history cannot justify.
    expect(times[0]).toBeLessThan(3_000);
    expect(times.filter((t) => t <= 4_000).length).toBeGreaterThanOrEqual(3);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(10_000);
  });

  it("keeps a history whose durations spread evenly, and drops a lone outlier either side", () => {
    expect(typicalDurations([40, 50, 60, 70, 80].map((s) => s * 1000))).toHaveLength(5);
    expect(typicalDurations([1, 60, 61, 62, 63].map((s) => s * 1000))).toEqual(
      [60, 61, 62, 63].map((s) => s * 1000),
    );
  });

  it("never plans a first poll after the deadline: the backoff polls from the start instead", () => {
    const history = [3_600_000, 3_700_000, 3_800_000];
    const times = pollTimes(new PollSchedule({ expectedDurationsMs: history }, 0, 40_000), 40_000);
    expect(times[0]).toBe(0);
    expect(times.length).toBeGreaterThan(4);
  });

  it("plans no poll past the deadline", () => {
    const history = [10, 20, 30, 40, 50].map((s) => s * 1000);
    const schedule = new PollSchedule({ expectedDurationsMs: history }, 0, 25_000);
    const times = pollTimes(schedule, 25_000);
    expect(times.every((t) => t < 25_000)).toBe(true);
  });
});
