import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { forgedCommands, leakedSecrets, runBundle } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import {
  actionDir,
  base,
  concludedBuildWithLogs,
  emulatorNow,
  file,
  platform,
  startWork,
} from "./fetch-logs-harness.js";

platform.use();

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
    await platform.reset();
    // Each refused on its own, all at once (none reaches the platform, so none disturbs another).
    const refusals = [
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
    ] as const;
    const results = await Promise.all(
      refusals.map(([inputs]) => runBundle(actionDir, { inputs: { ...base(), ...inputs } })),
    );
    for (const [i, [inputs, input]] of refusals.entries()) {
      expect(results[i]?.code, JSON.stringify(inputs)).toBe(1);
      expect(results[i]?.stdout).toContain(`Input "${input}"`);
    }
    expect(await platform.requests()).toEqual([]);
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
