import { systemClock } from "@cwp/client";
import { describe, expect, it } from "vitest";
import { linePattern } from "../src/patterns.js";
import { SLOW_PATTERN, slowLines } from "./slow-lines.js";

// fail-on-regex's matching heeds a cancel and the deadline between slices of SLICE_MS (250 ms),
// whatever the lines: measured here in one process as the main thread's CPU time from the cancel
// (or the deadline) to the end, which other processes' load does not stretch (the bundle's test
// adds a process's start and end to it).

/** The main thread's CPU time, ms. */
const cpuNow = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

describe("fail-on-regex's matching", () => {
  it("ends within 1 s of a cancel made mid-matching", async () => {
    const gate = linePattern(SLOW_PATTERN, "fail-on-regex");
    const lines = slowLines();
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 300);
    let abortedAt = 0;
    cancel.signal.addEventListener("abort", () => {
      abortedAt = cpuNow();
    });
    const error = await gate
      ?.firstMatch(lines, { signal: cancel.signal, deadline: Date.now() + 60_000, clock: systemClock })
      .catch((e: Error) => e);
    expect(String(error)).toMatch(/Cancelled while matching fail-on-regex/);
    expect(cpuNow() - abortedAt).toBeLessThan(1_000);
  });

  it("ends within 1 s of its deadline", async () => {
    const gate = linePattern(SLOW_PATTERN, "fail-on-regex");
    // Made before the deadline is set: on a loaded machine, making them took longer than 300 ms.
    const lines = slowLines();
    // The thread's CPU time from the call to the end: at most the deadline's 300 ms before it
    // (CPU time never runs ahead of the clock) and under 1 s after it. A timer marking the deadline
    // did not serve: a slice begun before the timer was due can pass the deadline and end the
    // matching before the timer ever runs (red once in CI on a loaded machine).
    const began = cpuNow();
    const error = await gate
      ?.firstMatch(lines, {
        signal: new AbortController().signal,
        deadline: Date.now() + 300,
        clock: systemClock,
      })
      .catch((e: Error) => e);
    expect(String(error)).toMatch(/did not finish within timeout/);
    expect(cpuNow() - began).toBeLessThan(300 + 1_000);
  });
});
