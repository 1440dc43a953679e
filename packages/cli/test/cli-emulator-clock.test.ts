import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startTestPlatform } from "@cwp/action-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

// The CLI against an emulator that runs faster than this machine (the README's "Try it locally":
// `cwp-emulator --speed 60`): it asks the emulator where its clock stands and how fast it runs
// (`GET /_emulator/clock`, only of a URL on this machine) and plans, waits, times out and prints
// durations on that clock, as a step does on the platform's. Before, it counted this machine's
// time: a fourth build's first poll, planned from the history's 60 platform seconds, slept 60 real
// seconds here, and a build of a minute on the platform printed "in 1s".

const EMULATOR = fileURLToPath(new URL("../../emulator/bin/cwp-emulator.js", import.meta.url));

/** The emulator as the README starts it, in a process of its own; the lines it prints to paste. */
async function startEmulatorAsTheReadmeDoes(): Promise<{
  env: Record<string, string>;
  process: ChildProcess;
}> {
  const child = spawn(process.execPath, [EMULATOR, "--speed", "60", "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const env: Record<string, string> = {};
  for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
    const exported = /^export (CWP_API_\w+)=(\S+)$/.exec(line);
    if (exported) env[exported[1] as string] = exported[2] as string;
    if (env.CWP_API_URL && env.CWP_API_TOKEN) break;
  }
  return { env, process: child };
}

describe("the CLI on an emulator's clock", () => {
  let emulator: Awaited<ReturnType<typeof startEmulatorAsTheReadmeDoes>>;
  beforeAll(async () => {
    emulator = await startEmulatorAsTheReadmeDoes();
  });
  afterAll(() => void emulator?.process.kill());

  it("prints a build's duration on the platform's clock, and a fourth build plans its polls from the history without sleeping its minutes here", async () => {
    const build = [
      "trigger-build",
      "--project-id",
      "platform-web",
      "--service-id",
      "web",
      "--branch",
      "main",
    ];
    for (let n = 1; n <= 4; n += 1) {
      const started = Date.now();
      const result = await runCli(build, { env: emulator.env });
      const took = Date.now() - started;
      const printed = result.stdout + result.stderr;
      expect(result.code, printed).toBe(0);
      // The emulator's builds take a minute of its time (a second here, at 60×).
      expect(printed).toMatch(/concluded SUCCESS in 1m \d+s\./);
      if (n === 4) {
        // A minute each on the emulator's clock; a loaded machine may stretch one by a second.
        expect(printed).toMatch(/The last 3 successful builds of service web took 1m \d+s to 1m \d+s/);
        // The planned first poll is a minute of the platform's, a second here: the bug slept 24 s
        // and more. The bound leaves a loaded machine its seconds.
        expect(took).toBeLessThan(15_000);
      }
    }
  });

  it("reads a month to date in its first hour on the emulator's calendar: no whole hour yet, said, nothing read", async () => {
    const platform = await startTestPlatform({ speed: 1, startAt: Date.parse("2027-01-01T00:20:00Z") });
    const dir = await mkdtemp(join(tmpdir(), "cwp-first-hour-"));
    try {
      const args = ["--period", "month-to-date", "--formats", "json csv", "--output-dir", dir, "--json"];
      const result = await runCli(["usage-report", ...args], {
        env: { CWP_API_URL: platform.url, CWP_API_TOKEN: platform.tokens.org },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout + result.stderr).toContain(
        "Nothing to report for 2027-01-01 (month to date) yet. The month to date has no whole hour yet: billing hours are whole, and the first of 2027-01-01 ends at 2027-01-01 01:00 UTC",
      );
      const json = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(json.total ?? null).toBeNull();
      const usage = (await platform.requests()).filter((r) => r.path.startsWith("/v1/usage"));
      expect(usage).toEqual([]);
      expect(await readdir(dir)).toEqual(["report.json"]);
    } finally {
      await platform.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
