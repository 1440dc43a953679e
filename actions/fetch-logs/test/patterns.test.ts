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
      ?.firstMatch(lines, { signal: cancel.signal, deadline: Date.now() + 60_000 })
      .catch((e: Error) => e);
    expect(String(error)).toMatch(/Cancelled while matching fail-on-regex/);
    expect(cpuNow() - abortedAt).toBeLessThan(1_000);
  });

  it("ends within 1 s of its deadline", async () => {
    const gate = linePattern(SLOW_PATTERN, "fail-on-regex");
    // Made before the deadline is set: on a loaded machine, making them took longer than 300 ms.
    const lines = slowLines();
    // Due no later than the deadline: it runs at the event loop's first turn past it, before the
    // matching looks at the clock again.
    let passedAt = Number.POSITIVE_INFINITY;
    setTimeout(() => {
      passedAt = cpuNow();
    }, 300);
    const deadline = Date.now() + 300;
    const error = await gate
      ?.firstMatch(lines, { signal: new AbortController().signal, deadline })
      .catch((e: Error) => e);
    expect(String(error)).toMatch(/did not finish within timeout/);
    expect(passedAt).toBeLessThan(Number.POSITIVE_INFINITY);
    expect(cpuNow() - passedAt).toBeLessThan(1_000);
  });
});
