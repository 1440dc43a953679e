import { describe, expect, it } from "vitest";
import { EXIT_CODES } from "../src/exit-codes.js";
import { BUILD, cwp, OPS, platform, posts, useCliHarness } from "./cli-harness.js";

useCliHarness();

// `cwp <operation>`: exit codes (cli-harness.ts runs it; what it prints where, pipes and --json:
// cli-output.test.ts; what it never prints: cli-secrets.test.ts).

describe("cwp: exit codes", () => {
  // The CLI counts the emulator's time (30× here): `--timeout 90s` is 3 s of this machine's.
  it("exits 3 when --timeout passes, after aborting the build", async () => {
    await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 36_000 });
    const result = await cwp([...BUILD, "--timeout", "90s"]);
    expect(result.code).toBe(EXIT_CODES.timeout);
    expect(result.stderr).toMatch(/did not conclude within 1m 30s.*aborted on the platform/);
  });

  it("suggests a timeout from the usual builds, not the one of a whole day, in --json too", async () => {
    // History: four builds of 2 minutes and one of 24 hours, each concluded on the emulator's clock.
    for (const seconds of [120, 120, 120, 120, 86_400]) {
      await platform.control("POST", "outcomes", { kind: "build", durationSeconds: seconds });
      await fetch(`${platform.url}${OPS["trigger-build"]?.start}`, {
        method: "POST",
        headers: { authorization: `Bearer ${platform.tokens.org}`, "content-type": "application/json" },
        body: JSON.stringify({ branch: "main" }),
      });
      await platform.control("POST", "clock", { advanceSeconds: seconds + 1 });
    }
    await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 36_000 });
    // The median is 2 minutes; the suggestion is the usual longest (2 minutes and a few seconds)
    // and half again, in the CLI's own words (the flag): never the day's 36h.
    const advice =
      /The timeout \(1m 30s\) is shorter than builds of service web usually take \(2m 0s, the median of the last 5\): set --timeout [34]m\./;
    const text = await cwp([...BUILD, "--timeout", "90s"]);
    expect(text.code).toBe(EXIT_CODES.timeout);
    expect(text.stderr).toMatch(advice);
    await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 36_000 });
    const json = await cwp([...BUILD, "--timeout", "90s", "--json"]);
    expect(json.code).toBe(EXIT_CODES.timeout);
    expect(JSON.parse(json.stdout.trim()).error.message).toMatch(advice);
  });

  it("exits 4 when the start's answer is lost, sending it once", async () => {
    await platform.control("POST", "faults", {
      method: "POST",
      path: "/v1/projects/platform-web/services/web/build",
      status: 503,
      after: true,
    });
    const result = await cwp(BUILD);
    expect(result.code).toBe(EXIT_CODES.unknown);
    expect(result.stderr).toMatch(/outcome is unknown/);
    expect(await posts("/v1/projects/platform-web/services/web/build")).toHaveLength(1);
  });

  it("asks for what to build when there is no workflow event to take it from, naming the flags", async () => {
    const result = await cwp(["trigger-build", "--project-id", "platform-web", "--service-id", "web"]);
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr).toContain(
      "--branch: is required outside a GitHub workflow: set branch, pull-request-id, sha or bundle-url",
    );
    expect(await platform.requests()).toEqual([]);
  });

  it("shows the log lines of a build that concluded before the wait began", async () => {
    // The start's own answer is the conclusion: the lines are read as the wait ends, none lost
    // to the stop of the read under way (they were behind the follower's cursor already).
    await platform.control("POST", "outcomes", {
      kind: "build",
      durationSeconds: 0,
      logLines: ["cloned", "pushed"],
    });
    const result = await cwp(BUILD);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/cloned[\s\S]*pushed/);
  });

  it("refuses an unknown flag as bad input: exit code 2, not the 1 of work that failed, nothing sent", async () => {
    const result = await cwp([...BUILD, "--brnach", "main"]);
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr).toContain("unknown option '--brnach'");
    expect(await platform.requests()).toEqual([]);
  });

  it("goes on waiting when a reader closes stdout (| grep -m1 Started): not a cancel, the exit code says how the work ended, no EPIPE trace", async () => {
    await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 90 });
    const ok = await cwp(BUILD, { closeStdoutWhen: (printed) => printed.includes("Started ") });
    expect(ok.code, ok.stderr).toBe(EXIT_CODES.success);
    expect(ok.stderr).not.toMatch(/EPIPE| {4}at /);
    expect((await platform.requests()).filter((r) => r.method === "DELETE")).toEqual([]);
    // And a build that fails after the reader left still exits 1.
    await platform.reset();
    await platform.control("POST", "outcomes", { kind: "build", succeed: false, durationSeconds: 90 });
    const failed = await cwp(BUILD, { closeStdoutWhen: (printed) => printed.includes("Started ") });
    expect(failed.code).toBe(EXIT_CODES.failed);
    expect(failed.stderr).not.toMatch(/EPIPE| {4}at /);
  });

  it("names the platform's failures when every status read fails until the timeout: exit 1, not the timeout's 3, and a 409 to the abort is 'concluded', never 'may still be running'", {
    timeout: 90_000,
  }, async () => {
    await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 3 });
    await platform.control("POST", "faults", {
      method: "GET",
      path: "/v1/projects/platform-web/services/web/build/*",
      status: 503,
      times: 10_000,
    });
    const result = await cwp([...BUILD, "--timeout", "5m"]);
    expect(result.code, result.stderr).toBe(EXIT_CODES.failed);
    expect(result.stderr).toMatch(
      /error: Build \S+ of service web in project platform-web could not be followed to its end \(build \S+ could not be read: all \d+ of its status reads failed \(503 to each\) up to the deadline, the platform's fault rather than the work's time\)/,
    );
    expect(result.stderr).toContain(
      "the platform refused the abort as it had already concluded (409); how it concluded could not be read. Look at its status on the platform.",
    );
    expect(result.stderr).not.toMatch(/did not conclude within|may still be running|set --timeout/);
    // The abort was asked once, and refused: the build had concluded.
    const aborts = (await platform.requests()).filter((r) => r.method === "DELETE");
    expect(aborts.map((r) => r.status)).toEqual([409]);
  });
});
