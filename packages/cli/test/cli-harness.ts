import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { harnessPlatform, leakedSecrets, type RunResult } from "@cwp/action-testing";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { type CliResult, runCli } from "./run-cli.js";

// `cwp <operation>` as a process against the emulator: the behaviours the runner-contract suite
// asks of each action (bad input sends nothing, a start is sent once, a cancel aborts, secrets are
// never printed), with the CLI's own exit codes and JSON.
// What the CLI test files share (cli.test.ts, cli-exit-codes.test.ts, cli-connection.test.ts, ...):
// one emulator per file, reset before each test, and a check after all of a file's runs that none
// printed the token. Each file calls useCliHarness() at its top (a worker keeps this module for
// the files it runs after).

export const BIN = fileURLToPath(new URL("../bin/cwp.js", import.meta.url));
export const platform = harnessPlatform();
export const results: CliResult[] = [];
export const env = () => ({ CWP_API_TOKEN: platform.tokens.org, CWP_API_URL: platform.url });
export const cwp = async (args: string[], options: Parameters<typeof runCli>[1] = {}) => {
  const result = await runCli(args, { ...options, env: { ...env(), ...options.env } });
  results.push(result);
  return result;
};
export const posts = async (path: string) =>
  (await platform.requests()).filter((r) => r.method === "POST" && r.path === path);
export const asRun = (r: CliResult) => ({ ...r, summary: "", outputs: {} }) as unknown as RunResult;

/** This file's emulator, reset before each test; after its tests, none of its runs printed the token. */
export function useCliHarness() {
  platform.use();
  beforeAll(() => {
    results.length = 0;
  });
  beforeEach(() => platform.reset());
  afterAll(() => {
    for (const result of results) expect(leakedSecrets(asRun(result), [platform.tokens.org])).toEqual([]);
  });
}

export interface Operation {
  args: string[];
  outcome?: "build" | "jobRun" | "templateRun" | "addonUpgrade" | "restore" | "restart";
  start?: string;
  abort?: RegExp;
  /** A malformed flag, refused before anything is sent. */
  malformed: [string, string];
}

export const OPS: Record<string, Operation> = {
  "trigger-build": {
    args: ["--project-id", "platform-web", "--service-id", "web", "--branch", "main"],
    outcome: "build",
    start: "/v1/projects/platform-web/services/web/build",
    abort: /^\/v1\/projects\/platform-web\/services\/web\/build\/[a-z]+-[a-z]+-\d+$/,
    malformed: ["--sha", "abc"],
  },
  "run-job": {
    args: ["--project-id", "platform-web", "--job-id", "migrate"],
    outcome: "jobRun",
    start: "/v1/projects/platform-web/jobs/migrate/runs",
    abort: /^\/v1\/projects\/platform-web\/jobs\/migrate\/runs\/[0-9a-f-]{36}$/,
    malformed: ["--runtime-environment", "BAD KEY=1"],
  },
  "run-template": {
    args: ["--template-id", "release", "--arguments", "version: 1.10"],
    outcome: "templateRun",
    start: "/v1/templates/release/runs",
    abort: /^\/v1\/templates\/release\/runs\/tr-[0-9a-f]+\/abort$/,
    malformed: ["--arguments", "[1, 2]"],
  },
  "upgrade-addon": {
    args: ["--project-id", "platform-web", "--addon-id", "db", "--version", "17.0"],
    outcome: "addonUpgrade",
    start: "/v1/projects/platform-web/addons/db/version",
    malformed: ["--timeout", "soon"],
  },
  "restore-backup": {
    args: ["--project-id", "platform-web", "--addon-id", "db", "--backup-id", "db-live-1"],
    outcome: "restore",
    start: "/v1/projects/platform-web/addons/db/backups/db-live-1/restore",
    malformed: ["--backup-id", "db live"],
  },
  "restart-service": {
    args: ["--project-id", "platform-web", "--service-id", "web"],
    outcome: "restart",
    start: "/v1/projects/platform-web/services/web/restart",
    malformed: ["--wait", "maybe"],
  },
  "fetch-logs": {
    args: ["--project-id", "platform-web", "--service-id", "web", "--duration", "5m", "--output-file"],
    malformed: ["--line-limit", "none"],
  },
  "usage-report": {
    args: ["--period", "last-30-days", "--formats", "json", "--output-dir"],
    malformed: ["--period", "forever"],
  },
};

/** The operation's flags, with a fresh output file or folder where it writes one. */
export const argsOf = (name: string) => {
  const args = [...(OPS[name]?.args ?? [])];
  if (args.at(-1)?.startsWith("--output"))
    args.push(join(tmpdir(), `cwp-cli-${process.pid}-${name}-${Date.now()}`));
  return args;
};

/** `cwp trigger-build` with the arguments that build the emulator's service: what most CLI cases run. */
export const BUILD = ["trigger-build", ...argsOf("trigger-build")];

export const STARTS_WORK = new Set([
  "trigger-build",
  "run-job",
  "run-template",
  "upgrade-addon",
  "restore-backup",
  "restart-service",
]);
