import { describe, expect, it } from "vitest";
import { suggestedTimeout } from "../src/engine/timeout-advice.js";

// The timeout a step suggests when the one set is shorter than the work usually takes: a value
// the input takes (at most 72h), from the usual runs, written as a person writes it.

const minutes = (n: number) => n * 60_000;

describe("the suggested timeout", () => {
  it("is the longest usual run and half again, in whole minutes", () => {
    expect(suggestedTimeout([minutes(10), minutes(10), minutes(10)])).toBe("15m");
    expect(suggestedTimeout([minutes(9.5)])).toBe("15m");
  });

  it("leaves out a run of 100 hours among runs of 2 minutes (it said 9001m)", () => {
    expect(suggestedTimeout([minutes(2), minutes(2), minutes(2), minutes(2), minutes(6000)])).toBe("3m");
  });

  it("is written in hours where it comes to them (2h, not 120m), and never above the input's 72h", () => {
    expect(suggestedTimeout([minutes(80), minutes(80), minutes(80)])).toBe("2h");
    expect(suggestedTimeout([minutes(60), minutes(60), minutes(60)])).toBe("1h30m");
    expect(suggestedTimeout([minutes(60 * 60), minutes(60 * 60), minutes(60 * 60)])).toBe("72h");
  });
});
