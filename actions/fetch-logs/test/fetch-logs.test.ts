import { readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  forgedCommands,
  leakedSecrets,
  runBundle,
  type TestPlatform,
  useTestPlatform,
} from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { SLOW_PATTERN, slowLines } from "./slow-lines.js";

const actionDir = fileURLToPath(new URL("..", import.meta.url));
const platform = useTestPlatform({ speed: 0 });
const base = () => ({
  ...platform.connection(),
  "project-id": "platform-web",
});
const emulatorNow = async () => Date.parse(((await platform.control("GET", "clock")) as { now: string }).now);
const file = (name: string) => join(tmpdir(), `cwp-fetch-logs-${process.pid}-${name}`);

/** What the emulator answers for the whole range in one page, to compare with. */
async function wholeRange(query: Record<string, string>) {
  const search = new URLSearchParams({ ...query, lineLimit: "10000" });
  const res = await fetch(`${platform.url}/v1/projects/platform-web/services/web/logs?${search}`, {
    headers: { authorization: `Bearer ${platform.tokens.org}` },
  });
  return ((await res.json()) as { data: Array<{ ts: string; containerId: string; log: string }> }).data;
}

/** Starts work (a build, a job run) on `on` as any client would; the id it got. */
async function startWork(on: TestPlatform, path: string, body: unknown): Promise<string> {
  const started = await fetch(`${on.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${on.tokens.org}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return ((await started.json()) as { data: { id: string } }).data.id;
}

/** Starts a build of service web that logs `lines` and concludes at once; its id, once concluded. */
async function concludedBuildWithLogs(lines: string[]): Promise<string> {
  await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 0, logLines: lines });
  const id = await startWork(platform, "/v1/projects/platform-web/services/web/build", { branch: "main" });
  await platform.control("POST", "clock", { advanceSeconds: 5 });
  return id;
}

describe("fetch-logs", () => {
  it("reads every line when one is dated in the future, and fail-on-regex sees the lines after it", async () => {
    await platform.reset();
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}${i === 29 ? " FATAL" : ""}`);
    // A line a second, each at its own time.
    await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 30, logLines: lines });
    const buildId = await startWork(platform, "/v1/projects/platform-web/services/web/build", {
      branch: "main",
    });
    await platform.control("POST", "clock", { advanceSeconds: 35 });
    // Pages of 12 lines, and the platform's eleventh line says 2099, on every page it is on.
    await platform.control("POST", "settings", { logPageCap: 12 });
    await platform.control("POST", "faults", {
      method: "GET",
      path: "/v1/projects/platform-web/services/web/build-logs",
      rewrite: { set: { "data.10.ts": "2099-01-01T00:00:00.000Z" } },
      times: 1000,
    });
    const result = await runBundle(actionDir, {
      inputs: {
        ...base(),
        "service-id": "web",
        "build-id": buildId,
        "fail-on-regex": "FATAL",
        "output-file": file("future.log"),
        print: "false",
      },
    });
    expect(result.code, result.stdout).toBe(1);
    expect(result.outputs.matched).toBe("true");
    const read = await readFile(file("future.log"), "utf8");
    for (const line of lines) expect(read).toContain(line);
  });

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

  it("honours line-limit, direction, duration and the text and regex filters", async () => {
    await platform.reset();
    const end = new Date(await emulatorNow()).toISOString();
    const out = file("filtered.log");
    const result = await runBundle(actionDir, {
      inputs: {
        ...base(),
        "service-id": "web",
        "end-time": end,
        duration: "2h",
        direction: "backward",
        "line-limit": "30",
        "text-not-includes": "INFO",
        "regex-includes": "^(WARN|ERROR)\\s",
        "output-file": out,
      },
    });
    expect(result.code, result.stdout).toBe(0);
    const lines = (await readFile(out, "utf8")).trim().split("\n");
    expect(lines.length).toBe(30);
    expect(lines.every((l) => / (WARN|ERROR) /.test(l))).toBe(true);
    const stamps = lines.map((l) => l.split(" ")[0] ?? "");
    expect([...stamps].sort().reverse()).toEqual(stamps);
    const [first] = (await platform.requests()).map((r) => r.query);
    expect(first).toMatchObject({
      direction: "backward",
      textNotIncludes: "INFO",
      regexIncludes: "^(WARN|ERROR)\\s",
      endTime: end,
    });
  });

  it.each(["Pacific/Kiritimati", "Pacific/Pago_Pago"])(
    "reads a start-time without an offset as UTC on a runner whose time zone is far from it (TZ=%s)",
    async (zone) => {
      await platform.reset();
      // Two hours before the platform's now, written as a person would: no Z, no offset.
      const start = new Date(Math.floor((await emulatorNow()) / 60_000) * 60_000 - 2 * 3_600_000);
      const written = start.toISOString().slice(0, 19);
      const result = await runBundle(actionDir, {
        inputs: { ...base(), "service-id": "web", "start-time": written, duration: "15m", print: "false" },
        env: { TZ: zone },
      });
      expect(result.code, result.stdout).toBe(0);
      const [first] = (await platform.requests()).map((r) => r.query);
      expect(first).toMatchObject({
        startTime: start.toISOString(),
        endTime: new Date(start.getTime() + 15 * 60_000).toISOString(),
      });
    },
  );

  it("fails the step when fail-on-regex matches, after writing the file", async () => {
    await platform.reset();
    const out = file("gate.log");
    const result = await runBundle(actionDir, {
      inputs: {
        ...base(),
        "service-id": "web",
        duration: "6h",
        "fail-on-regex": "^ERROR upstream timeout",
        "output-file": out,
        print: "false",
      },
    });
    expect(result.code).toBe(1);
    expect(result.outputs.matched).toBe("true");
    // With print: false the lines are only in the file: the failure quotes the line that matched,
    // the first one in the file, so that the step's annotation says what to act on.
    const written = (await readFile(out, "utf8")).split("\n");
    const line = written.find((l) => / ERROR upstream timeout after \d+ms on GET /.test(l)) ?? "";
    const [ts, container] = line.split(" ");
    const text = line.slice(`${ts} ${container} `.length);
    expect(text).toMatch(/^ERROR upstream timeout/);
    const [error] = result.stdout.split("\n").filter((l) => l.startsWith("::error::"));
    expect(error).toBe(
      `::error::A line of the logs of service web in project platform-web matches fail-on-regex (first at ${ts}, container ${container}): ${text}%0AThe lines are in ${out}.`,
    );
    expect(result.summary).toContain(`| Matched | ${ts} ${text} |`);
  });

  it("quotes a matching line inert and masked: its commands do nothing, a secret in it is ***", async () => {
    await platform.reset();
    const token = platform.tokens.org;
    const buildId = await concludedBuildWithLogs([
      "starting",
      `FATAL ::add-mask::x ##[error]forged token=${token} <b>@octocat</b>`,
      "after",
    ]);
    const out = file("hostile-match.log");
    const result = await runBundle(actionDir, {
      inputs: {
        ...base(),
        "service-id": "web",
        "build-id": buildId,
        "fail-on-regex": "^FATAL",
        "output-file": out,
        print: "false",
      },
    });
    expect(result.code).toBe(1);
    const [error, ...more] = result.stdout.split("\n").filter((l) => l.startsWith("::error::"));
    expect(more).toEqual([]);
    // In the annotation's data: the runner reads no command there; the old ##[ form is broken up.
    expect(error).toContain(
      "): FATAL ::add-mask::x # #[error]forged token=*** <b>@octocat</b>%0AThe lines are in",
    );
    expect(result.stdout).not.toMatch(/^::add-mask::x/m);
    expect(leakedSecrets(result, [token])).toEqual([]);
    // In the summary, a cell of escaped text: no HTML, no mention.
    const matched = result.summary.split("\n").find((l) => l.startsWith("| Matched |")) ?? "";
    expect(matched).not.toContain("<b>");
    expect(matched).not.toMatch(/@octocat/);
    expect(matched).toContain("token=&#42;&#42;&#42;"); // ***, escaped
  });

  it("runs fail-on-regex in linear time: a pattern that backtracks for ever in JavaScript ends at once", async () => {
    await platform.reset();
    // `(a+)+$` against forty a's and a '!' takes JavaScript's engine longer than any step may run.
    const lines = ["a".repeat(40).concat("!"), "b".repeat(30), "done."];
    const buildId = await concludedBuildWithLogs(lines);
    const gated = (pattern: string) =>
      runBundle(actionDir, {
        inputs: {
          ...base(),
          "service-id": "web",
          "build-id": buildId,
          "fail-on-regex": pattern,
          "output-file": file("linear.log"),
          print: "false",
        },
      });
    const startedAt = Date.now();
    const passed = await gated("(a+)+$");
    expect(passed.code, passed.stdout).toBe(0);
    expect(passed.outputs).toMatchObject({ matched: "false", lines: String(lines.length) });
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    const failed = await gated("^(a|aa)+!$");
    expect(failed.code, failed.stdout).toBe(1);
    expect(failed.outputs.matched).toBe("true");
  });

  it("refuses a fail-on-regex that needs backtracking (a backreference, lookaround), naming it, before any request", async () => {
    await platform.reset();
    for (const pattern of ["(a)\\1", "error(?!s)"]) {
      const before = (await platform.requests()).length;
      const result = await runBundle(actionDir, {
        inputs: { ...base(), "service-id": "web", "fail-on-regex": pattern, print: "false" },
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /::error::.*fail-on-regex.*must be a regular expression in RE2 syntax, which matches in linear time/,
      );
      expect((await platform.requests()).length).toBe(before);
    }
  });

  it("refuses a fail-on-regex whose program is past the bound, naming it, before any request", async () => {
    await platform.reset();
    const result = await runBundle(actionDir, {
      inputs: { ...base(), "service-id": "web", "fail-on-regex": "(\\p{L}\\s?){1,300}\\d", print: "false" },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /::error::.*fail-on-regex.*compiles to 1802 instructions, more than the 1000/,
    );
    expect(await platform.requests()).toEqual([]);
  });

  it("a slow pattern on long non-ASCII lines ends at its timeout, and on a cancel, as a whole step", {
    timeout: 60_000,
  }, async () => {
    await platform.reset();
    const lines = slowLines();
    const buildId = await concludedBuildWithLogs(lines);
    const inputs = {
      ...base(),
      "service-id": "web",
      "build-id": buildId,
      "fail-on-regex": SLOW_PATTERN,
      "output-file": file("slow.log"),
      print: "false",
    };
    const began = Date.now();
    const timedOut = await runBundle(actionDir, {
      inputs: { ...inputs, timeout: "1s", "output-file": file("timed-out.log") },
    });
    expect(timedOut.code, timedOut.stdout.slice(0, 600)).toBe(1);
    expect(timedOut.stdout).toMatch(/::error::Matching fail-on-regex did not finish within timeout/);
    // The exit code and the message say the deadline ended the matching (unheeded, it would end
    // with no match and 0). Its bound is measured in one process (patterns.test.ts: within 1 s of
    // the deadline or a cancel); a whole step's start and end, which a loaded machine stretches,
    // get a margin here.
    expect(timedOut.endedAt - began).toBeLessThan(1000 + 5000);
    // Into the matching, which takes 1.2-2.4 s (more on a loaded machine): once the step has written
    // the lines it matches to its file (it writes a page, then matches it), never at a fixed time
    // (a loaded machine may not have started the step by then).
    const written = lines.reduce((n, line) => n + Buffer.byteLength(line), 0);
    const linesRead = (async () => {
      for (;;) {
        const size = await stat(file("slow.log")).then(
          (s) => s.size,
          () => 0,
        );
        if (size >= written) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const cancelled = await runBundle(actionDir, { inputs, cancelOn: linesRead });
    expect(cancelled.code).toBe(1);
    // 1 s on this machine when idle; the margin is a loaded machine's.
    expect(cancelled.endedAt - (cancelled.cancelledAt ?? 0)).toBeLessThan(5000);
  });

  it("reads a build's logs and prints hostile lines only inside a stop-commands block", async () => {
    await platform.reset();
    const hostile = [
      "::add-mask::platform-web",
      "::error::forged",
      "::stop-commands::guessed",
      "::guessed::",
      "::set-output name=x::y",
    ];
    const buildId = await concludedBuildWithLogs(hostile);
    // The build's own time range, not a duration back from this machine's clock: at speed 0 the
    // emulator's clock runs ahead of it by every advance, and a build made after earlier tests'
    // advances would lie in this machine's future.
    const result = await runBundle(actionDir, {
      inputs: { ...base(), "service-id": "web", "build-id": buildId },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.outputs.lines).toBe(String(hostile.length));
    for (const line of hostile)
      expect(
        result.stdout.split("\n").some((l) => l.endsWith(` ${line}`)),
        line,
      ).toBe(true);
    expect(forgedCommands(result.stdout, hostile)).toEqual([]);
    expect(leakedSecrets(result, [platform.tokens.org])).toEqual([]);
  });

  // Eleven runs of the bundle: under the whole suite's load on two cores, 20 s was not enough.
  it("reads any container's logs by name, and names a missing or conflicting selector", {
    timeout: 90_000,
  }, async () => {
    await platform.reset();
    const ok = await runBundle(actionDir, {
      inputs: { ...base(), "container-name": "db", duration: "1m", print: "false" },
    });
    expect(ok.code, ok.stdout).toBe(0);
    expect(Number(ok.outputs.lines)).toBeGreaterThan(0);
    expect((await platform.requests())[0]?.path).toBe("/v1/logs");
    for (const [inputs, input] of [
      [{ "project-id": "", "service-id": "" }, "service-id"],
      [{ "service-id": "web", "container-name": "db" }, "service-id"],
      [{ "build-id": "b-1" }, "build-id"],
      [{ "run-id": "r-1" }, "run-id"],
      [{ "job-id": "migrate", "service-id": "web" }, "service-id"],
      [{ "job-id": "migrate", "container-name": "db" }, "job-id"],
      [{ duration: "soon" }, "duration"],
      [{ "regex-includes": "(" }, "regex-includes"],
      [{ "start-time": "yesterday", "service-id": "web" }, "start-time"],
      // Without end-time the range ends now: the start is what is wrong, not the end never given.
      [{ "start-time": "2099-01-01T00:00:00Z", "service-id": "web" }, "start-time"],
      [
        { "start-time": "2026-01-02T00:00:00Z", "end-time": "2026-01-01T00:00:00Z", "service-id": "web" },
        "end-time",
      ],
      [{ direction: "sideways", "service-id": "web" }, "direction"],
      [{ format: "xml", "service-id": "web" }, "format"],
      // An id is never a path segment that moves elsewhere (/services/../logs).
      [{ "service-id": ".." }, "service-id"],
      [{ "build-id": "../..", "service-id": "web" }, "build-id"],
      [{ "run-id": "..", "job-id": "migrate" }, "run-id"],
    ] as const) {
      await platform.reset();
      const result = await runBundle(actionDir, { inputs: { ...base(), ...inputs } });
      expect(result.code, JSON.stringify(inputs)).toBe(1);
      expect(result.stdout).toContain(`Input "${input}"`);
      expect(await platform.requests()).toEqual([]);
    }
  });

  it("names an output-file that cannot be written, before any request", async () => {
    await platform.reset();
    const out = join(tmpdir(), `cwp-no-such-dir-${process.pid}`, "logs.txt");
    const result = await runBundle(actionDir, {
      inputs: { ...base(), "service-id": "web", "output-file": out },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`::error::Input "output-file": cannot be written (ENOENT): ${out}`);
    expect(result.stdout).toContain("Nothing was sent to the platform.");
    expect(result.stderr).not.toContain("Unhandled");
    expect(await platform.requests()).toEqual([]);
  });

  it("uses the team twin with team-id", async () => {
    await platform.reset();
    const result = await runBundle(actionDir, {
      inputs: {
        ...base(),
        "api-token": platform.tokens.teamViaOrg,
        "team-id": "platform",
        "service-id": "web",
        duration: "1m",
        print: "false",
      },
    });
    expect(result.code, result.stdout).toBe(0);
    expect((await platform.requests()).every((r) => r.path.startsWith("/v1/teams/platform/"))).toBe(true);
  });
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
