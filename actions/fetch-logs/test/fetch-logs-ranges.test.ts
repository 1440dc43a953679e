import { readFile } from "node:fs/promises";
import { runBundle, useTestPlatform } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { actionDir, base, emulatorNow, file, platform, startWork, wholeRange } from "./fetch-logs-harness.js";

platform.use();

// fetch-logs reading a range whole: page after page, through a slow or failing platform, and the
// logs of work that ran long ago (fetch-logs-harness.ts runs the step; what it prints and its
// selectors: fetch-logs.test.ts).

describe("fetch-logs: a range read whole, page after page", () => {
  it("reads a range of several pages whole, with no line lost or repeated, into a JSON-lines file", async () => {
    await platform.reset();
    const end = new Date(await emulatorNow()).toISOString();
    const start = new Date(Date.parse(end) - 6 * 3_600_000).toISOString();
    const out = file("range.jsonl");
    const result = await runBundle(actionDir, {
      inputs: {
        ...base(),
        "service-id": "web",
        "start-time": start,
        "end-time": end,
        format: "jsonl",
        "output-file": out,
        print: "false",
        "line-limit": "100000",
      },
    });
    expect(result.code, result.stdout).toBe(0);
    const written = (await readFile(out, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const expected = await wholeRange({ startTime: start, endTime: end, direction: "forward" });
    expect(expected.length).toBeGreaterThan(5000); // more than one page of the action's (5,000 lines)
    expect(written.map((l) => `${l.ts} ${l.containerId} ${l.log}`)).toEqual(
      expected.map((l) => `${l.ts} ${l.containerId} ${l.log}`),
    );
    expect(result.outputs).toMatchObject({
      file: out,
      lines: String(expected.length),
      "first-timestamp": expected[0]?.ts,
      "last-timestamp": expected.at(-1)?.ts,
      matched: "false",
    });
    // Several pages: the action asked more than once (the test's own request asks for 10,000).
    expect((await platform.requests()).filter((r) => r.query.lineLimit === "5000").length).toBeGreaterThan(1);
  });

  it.each([1, 7, 100])(
    "reads all 250 lines of a range when the platform answers at most %i a request",
    async (cap) => {
      await platform.reset();
      // 125 instants of two replicas each: every timestamp is shared by two lines.
      const start = Math.floor(((await emulatorNow()) - 3_600_000) / 5000) * 5000;
      const range = {
        startTime: new Date(start).toISOString(),
        endTime: new Date(start + 625_000).toISOString(),
      };
      const expected = await wholeRange({ ...range, direction: "forward" });
      expect(expected).toHaveLength(250);
      await platform.control("POST", "settings", { logPageCap: cap });
      const out = file(`capped-${cap}.jsonl`);
      const result = await runBundle(actionDir, {
        inputs: {
          ...base(),
          "service-id": "web",
          "start-time": range.startTime,
          "end-time": range.endTime,
          "line-limit": "1000",
          format: "jsonl",
          "output-file": out,
          print: "false",
        },
      });
      expect(result.code, result.stdout).toBe(0);
      expect(result.outputs.lines).toBe("250");
      const written = (await readFile(out, "utf8"))
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(written).toEqual(expected);
    },
  );
});

describe("fetch-logs: a slow or failing platform", () => {
  const LOGS = "/v1/projects/platform-web/services/web/logs";

  it("reads the whole range through 429s and 5xx on its pages", async () => {
    await platform.reset();
    await platform.control("POST", "faults", [
      { method: "GET", path: LOGS, status: 503, times: 1 },
      { method: "GET", path: LOGS, status: 429, headers: { "x-ratelimit-reset": "1" }, times: 1 },
      { method: "GET", path: LOGS, status: 502, times: 1 },
    ]);
    // The range ends at the emulator's time (its clock stands still at speed 0).
    const end = new Date(await emulatorNow()).toISOString();
    const result = await runBundle(actionDir, {
      inputs: { ...base(), "service-id": "web", "end-time": end, duration: "5m", print: "false" },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.outputs.lines).toBe("120"); // 2 replicas, a line every 5 s, 5 minutes
  });

  it("fails clearly when reading takes longer than timeout", async () => {
    await platform.reset();
    await platform.control("POST", "faults", { method: "GET", path: LOGS, delayMs: 5000 });
    const result = await runBundle(actionDir, {
      inputs: { ...base(), "service-id": "web", duration: "5m", timeout: "1s" },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /::error::GET \/v1\/projects\/platform-web\/services\/web\/logs: the platform at http:\/\/127\.0\.0\.1:\d+ did not answer within [\d.]+ s/,
    );
  });

  it("stops and fails clearly when the workflow is cancelled", async () => {
    await platform.reset();
    await platform.control("POST", "faults", { method: "GET", path: LOGS, delayMs: 10_000 });
    const result = await runBundle(actionDir, {
      inputs: { ...base(), "service-id": "web", duration: "5m" },
      cancelWhen: (printed) => printed.includes("add-mask"),
    });
    expect(result.code).toBe(1);
    expect(result.endedAt - (result.cancelledAt ?? 0)).toBeLessThan(5000);
    expect(result.stdout).toMatch(/::error::Cancelled with the workflow/);
  });
});

describe("fetch-logs: a build or job run that ran long ago", () => {
  // An emulator of its own: this test moves its clock three hours on, for good.
  const old = useTestPlatform({ speed: 0 });

  it("reads a build's whole log by its own time range, however long ago it ran", async () => {
    await old.reset();
    const lines = Array.from({ length: 10 }, (_, i) => `step ${i + 1} of a two-hour build`);
    await old.control("POST", "outcomes", { kind: "build", durationSeconds: 7200, logLines: lines });
    const buildId = await startWork(old, "/v1/projects/platform-web/services/web/build", { branch: "main" });
    await old.control("POST", "clock", { advanceSeconds: 3 * 3600 });
    const result = await runBundle(actionDir, {
      inputs: {
        ...old.connection(),
        "project-id": "platform-web",
        "service-id": "web",
        "build-id": buildId,
        "fail-on-regex": "two-hour",
      },
    });
    expect(result.outputs.lines).toBe("10");
    expect(result.outputs.matched).toBe("true");
    expect(result.code).toBe(1);
  });

  it("reads a job run's whole log by run-id, over the run's own life, after it failed", async () => {
    await old.reset();
    const lines = ["migrating 0041_orders", "ERROR: column orders.total already exists"];
    await old.control("POST", "outcomes", {
      kind: "jobRun",
      durationSeconds: 1800,
      succeed: false,
      logLines: lines,
    });
    const runId = await startWork(old, "/v1/projects/platform-web/jobs/migrate/runs", {});
    await old.control("POST", "clock", { advanceSeconds: 5 * 3600 });
    const out = file("job-run.log");
    const result = await runBundle(actionDir, {
      inputs: {
        ...old.connection(),
        "project-id": "platform-web",
        "job-id": "migrate",
        "run-id": runId,
        "output-file": out,
        print: "false",
        "fail-on-regex": "^ERROR",
      },
    });
    expect(result.outputs.lines).toBe("2");
    expect(result.outputs.matched).toBe("true");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`logs of run ${runId} of job migrate in project platform-web`);
    expect(
      (await readFile(out, "utf8"))
        .trim()
        .split("\n")
        .map((l) => l.split(" ").slice(2).join(" ")),
    ).toEqual(lines);
  });
});
