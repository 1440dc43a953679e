import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startTestPlatform } from "@cwp/action-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_CODES } from "../src/exit-codes.js";
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

  it("asks nothing of an address on this machine when a flag is bad: the clock is asked once the flags are valid", async () => {
    // A platform reached on loopback (a port-forward, a proxy in front of the real one) that hears
    // every request: bad input must send it none, not even the emulator's clock question.
    const heard: string[] = [];
    const server = createServer((req, res) => {
      heard.push(`${req.method} ${req.url}`);
      res.writeHead(404, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const args = ["--project-id", "bad id!", "--service-id", "api", "--branch", "main"];
      const connection = ["--api-url", `http://127.0.0.1:${port}`, "--api-token", "cwp_loopback_token"];
      const result = await runCli(["trigger-build", ...args, ...connection], { env: {} });
      expect(result.code, result.stderr).toBe(EXIT_CODES.input);
      expect(result.stderr).toContain("--project-id");
      expect(result.stderr).toContain("Nothing was sent to the platform");
      expect(heard).toEqual([]);
      // Valid flags: the clock is asked first (this server is no emulator: real time, quietly).
      const valid = await runCli(["trigger-build", "--project-id", "shop", ...args.slice(2), ...connection], {
        env: {},
      });
      expect(valid.code).not.toBe(EXIT_CODES.input);
      expect(heard[0]).toBe("GET /_emulator/clock");
      expect(valid.stderr).not.toContain("_emulator");
    } finally {
      server.close();
    }
  });
});
