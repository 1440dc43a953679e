import { describe, expect, it } from "vitest";
import { CLOCK_SKEW_MS, timeRange } from "../src/time-range.js";

// The range fetch-logs reads, from start-time, end-time and duration, before any request.

const now = Date.parse("2026-11-25T12:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();

describe("timeRange", () => {
  it("reads from start-time to now when only start-time is given", () => {
    expect(timeRange(iso(now - 600_000), undefined, undefined, now)).toEqual({
      startTime: iso(now - 600_000),
      endTime: iso(now),
    });
  });

  it("takes a start a few seconds ahead of this clock (the platform's runs ahead), reading past now", () => {
    expect(timeRange(iso(now + 5_000), undefined, undefined, now)).toEqual({
      startTime: iso(now + 5_000),
      endTime: iso(now + CLOCK_SKEW_MS),
    });
  });

  it("refuses a start further ahead than any clock skew, naming start-time", () => {
    expect(() => timeRange(iso(now + CLOCK_SKEW_MS + 1), undefined, undefined, now)).toThrow(/start-time/);
  });
});
