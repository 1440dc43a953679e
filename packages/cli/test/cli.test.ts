import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT_CODES } from "../src/exit-codes.js";
import { OPERATIONS } from "../src/operations.js";
import { argsOf, cwp, OPS, platform, posts, useCliHarness } from "./cli-harness.js";
import { runCli } from "./run-cli.js";

useCliHarness();

// `cwp <operation>` against the emulator (its flags and --help: cli-flags.test.ts; how it ends when
// the work fails or a signal comes: cli-endings.test.ts);
// `cwp --version` and `cwp emulator` (cli-harness.ts runs them).

describe("cwp: each operation against the emulator", () => {
  for (const [name, op] of Object.entries(OPS)) {
    it(`${name}: succeeds with --json, one JSON object of typed outputs on stdout, the start sent once`, async () => {
      const result = await cwp([name, ...argsOf(name), "--json"]);
      expect(result.code, result.stderr).toBe(0);
      const outputs = JSON.parse(result.stdout) as Record<string, unknown>;
      const metadata = OPERATIONS[name]?.metadata;
      expect(Object.keys(outputs).sort()).toEqual(Object.keys(metadata?.outputs ?? {}).sort());
      for (const value of Object.values(outputs))
        expect(value === null || ["string", "number", "boolean"].includes(typeof value)).toBe(true);
      if ("concluded" in outputs) expect(outputs.concluded).toBe(true);
      if (op.start) expect(await posts(op.start)).toHaveLength(1);
    });

    it(`${name}: refuses a malformed ${op.malformed[0]} with exit code 2, sending nothing`, async () => {
      // In place of the good value, if the operation's arguments hold the flag: a flag is given once.
      const args = argsOf(name);
      const at = args.indexOf(op.malformed[0]);
      if (at >= 0) args.splice(at, 2);
      const result = await cwp([name, ...args, ...op.malformed]);
      expect(result.code).toBe(EXIT_CODES.input);
      // Named as the flag it was given as, not as the action's input.
      expect(result.stderr).toContain(`error: ${op.malformed[0]}: `);
      expect(result.stderr).not.toContain("Input ");
      expect(result.stderr).toContain("Nothing was sent");
      expect(await platform.requests()).toEqual([]);
    });
  }
});

describe("cwp fetch-logs --fail-on-regex", () => {
  it("exits 1 quoting the line that matched, with --print false too, its controls made safe", async () => {
    const out = join(tmpdir(), `cwp-cli-${process.pid}-matched.log`);
    const result = await cwp([
      "fetch-logs",
      ...["--project-id", "platform-web", "--service-id", "web", "--duration", "6h"],
      ...["--fail-on-regex", "^ERROR upstream timeout", "--print", "false", "--output-file", out],
    ]);
    expect(result.code).toBe(EXIT_CODES.failed);
    const line =
      (await readFile(out, "utf8")).split("\n").find((l) => / ERROR upstream timeout /.test(l)) ?? "";
    const [ts, container] = line.split(" ");
    expect(result.stderr).toContain(
      `error: A line of the logs of service web in project platform-web matches fail-on-regex (first at ${ts}, container ${container}): ${line.slice(`${ts} ${container} `.length)}\nerror: The lines are in ${out}.`,
    );
  });
});

describe("cwp upgrade-addon to an older version", () => {
  it("is refused with exit code 2 naming both versions and --allow-downgrade, changing nothing", async () => {
    const result = await cwp([
      "upgrade-addon",
      "--project-id",
      "platform-web",
      "--addon-id",
      "db",
      "--version",
      "15.7",
    ]);
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr).toContain(
      "error: --version: 15.7 is older than 16.4, the version addon db runs: a downgrade, not done. Give the newer version you meant, or set --allow-downgrade true to downgrade it",
    );
    expect((await platform.requests()).filter((r) => r.method !== "GET")).toEqual([]);
  });
});

describe("cwp usage-report --project-id", () => {
  it("takes the project's id as the other operations do, and names the ids there are for one no project has", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-cli-project-"));
    const week = ["usage-report", "--period", "last-7-days", "--formats", "json", "--output-dir", dir];
    const ok = await cwp([...week, "--project-id", "platform-web"]);
    expect(ok.code, ok.stderr).toBe(0);
    const json = JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as {
      filters: { projectId?: string };
    };
    expect(json.filters.projectId).toMatch(/^[0-9a-f]{24}$/);
    const typo = await cwp([...week, "--project-id", "platform-wbe"]);
    expect(typo.code).toBe(EXIT_CODES.input);
    expect(typo.stderr).toMatch(
      /error: --project-id: no project "platform-wbe" among the \d+ this token can read \(.*platform-web.*\)/,
    );
  });
});

describe("cwp --version", () => {
  it("prints the version of the package, as -V too, and exits 0", async () => {
    const { version } = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    for (const flag of ["--version", "-V"]) {
      const result = await runCli([flag]);
      expect(result.code).toBe(0);
      expect(result.stdout.trim()).toBe(version);
    }
  });
});

describe("cwp emulator", () => {
  it("starts the emulator with its own options, and says where first", async () => {
    const result = await runCli(["emulator", "--port", "0", "--speed", "0"], {
      cancelWhen: (printed) => printed.includes("listening on"),
    });
    expect(result.stdout.split("\n")[0]).toMatch(/^cwp-emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(result.code).toBe(0);
  });
});
