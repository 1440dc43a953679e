import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { projectListGoingRound } from "./project-list-going-round.js";
import { platform, report, WHOLE_HOURS } from "./report-harness.js";

platform.use();

// usage-report against a platform that goes round, trickles, fails or is slow (report-harness.ts
// runs the step; its inputs and the platform's text: report-inputs.test.ts).

describe("usage-report: a platform that goes round, trickles, fails or is slow", () => {
  // Slow answers that a step which waits for them cannot hide on any machine: ended before one of
  // them is given up, not waited for; ended before two is read side by side. The rest of each
  // bound is a loaded machine's start and end of a step.
  const SLOW_MS = 6_000;

  it("stops on a project list that goes round, naming it, without spending the hour's budget or writing a report from part of it", async () => {
    await platform.reset();
    await projectListGoingRound(platform);
    const { result, dir } = await report({ ...WHOLE_HOURS, formats: "json", "group-by": "project" });
    expect(result.code, result.stdout).toBe(1);
    const listed = (await platform.requests()).filter((r) => r.path === "/v1/projects");
    expect(listed.length).toBeLessThanOrEqual(6);
    // The files a run writes replace an earlier run's: only a complete read writes them.
    expect(result.stdout).toMatch(
      /::error::GET \/v1\/\S*projects (answered the same page twice|handed out a cursor).*could not be read whole, so nothing was written/,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("ends at its timeout when the usage list trickles in, instead of minutes later", async () => {
    await platform.reset();
    await platform.control("POST", "faults", {
      method: "GET",
      path: "/v1/billing/usage",
      status: 200,
      body: { data: { usage: [] }, pad: "x".repeat(2000) },
      trickleMs: 20,
      times: 100,
    });
    const begun = Date.now();
    const { result } = await report({ ...WHOLE_HOURS, formats: "json", timeout: "5s" });
    expect(result.code).toBe(1);
    expect(result.endedAt - begun).toBeLessThan(9000);
    expect(result.stdout).toMatch(/::error::GET \/v1\/billing\/usage/);
  });

  it("stops every other read as soon as one fails, and leaves no half files", async () => {
    await platform.reset();
    // The totals and the trend take seconds to answer; the credit balance, read beside the
    // trend, is refused at once.
    await platform.control("POST", "faults", [
      { method: "GET", path: "/v1/billing/credit-balance", status: 403, times: 1 },
      { method: "GET", path: "/v1/billing/usage", delayMs: SLOW_MS, times: 3 },
    ]);
    const begun = Date.now();
    const { result, dir } = await report({ ...WHOLE_HOURS, timeout: "60s" });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/::error::GET \/v1\/billing\/credit-balance failed with 403/);
    // The totals first (one slow answer), then the trend's request given up, not waited for (a
    // second one).
    expect(result.endedAt - begun).toBeLessThan(2 * SLOW_MS);
    expect(await readdir(dir)).toEqual([]);
  });

  it("stops the usage reads as soon as the names are refused", async () => {
    await platform.reset();
    // The totals and the trend take seconds to answer; the project names, read beside them, are
    // refused at once.
    await platform.control("POST", "faults", [
      { method: "GET", path: "/v1/projects", status: 403, times: 1 },
      { method: "GET", path: "/v1/billing/usage", delayMs: SLOW_MS, times: 3 },
    ]);
    const begun = Date.now();
    const { result, dir } = await report({ ...WHOLE_HOURS, timeout: "60s" });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/::error::GET \/v1\/projects failed with 403/);
    // The usage reads were given up, not waited for.
    expect(result.endedAt - begun).toBeLessThan(SLOW_MS);
    expect(await readdir(dir)).toEqual([]);
  });

  it("reads the trend beside the totals: a slow usage list costs its wait once", async () => {
    await platform.reset();
    // Both periods' totals and the trend: each answers after SLOW_MS.
    await platform.control("POST", "faults", [
      { method: "GET", path: "/v1/billing/usage", delayMs: SLOW_MS, times: 3 },
    ]);
    const begun = Date.now();
    const { result } = await report({ formats: "json" });
    expect(result.code, result.stdout).toBe(0);
    // Read one after the other, they would take twice as long at least.
    expect(result.endedAt - begun).toBeLessThan(2 * SLOW_MS);
  });

  it("reads through 429s and 5xx", async () => {
    await platform.reset();
    await platform.control("POST", "faults", [
      { method: "GET", path: "/v1/billing/usage", status: 503, times: 1 },
      {
        method: "GET",
        path: "/v1/billing/usage",
        status: 429,
        headers: { "x-ratelimit-reset": "1" },
        times: 1,
      },
    ]);
    const { result } = await report({ formats: "json" });
    expect(result.code, result.stdout).toBe(0);
  });
});
