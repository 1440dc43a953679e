import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { inputsOf } from "@cwp/action-kit/engine";
import { deployments } from "@cwp/action-kit/github";
import {
  leakedSecrets,
  type RunResult,
  readActionYml,
  startGitHubStandIn,
  useTestPlatform,
} from "@cwp/action-testing";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { EXIT_CODES } from "../src/exit-codes.js";
import { OPERATIONS } from "../src/operations.js";
import { doesNothing } from "../src/terminal-help.js";
import { type CliResult, runCli } from "./run-cli.js";

// `cwp <operation>` as a process against the emulator: the behaviours the runner-contract suite
// asks of each action (bad input sends nothing, a start is sent once, a cancel aborts, secrets are
// never printed), with the CLI's own exit codes and JSON.

const BIN = fileURLToPath(new URL("../bin/cwp.js", import.meta.url));
const platform = useTestPlatform();
const results: CliResult[] = [];
const env = () => ({ CWP_API_TOKEN: platform.tokens.org, CWP_API_URL: platform.url });
const cwp = async (args: string[], options: Parameters<typeof runCli>[1] = {}) => {
  const result = await runCli(args, { ...options, env: { ...env(), ...options.env } });
  results.push(result);
  return result;
};
const posts = async (path: string) =>
  (await platform.requests()).filter((r) => r.method === "POST" && r.path === path);
const asRun = (r: CliResult) => ({ ...r, summary: "", outputs: {} }) as unknown as RunResult;

beforeEach(() => platform.reset());
afterAll(() => {
  for (const result of results) expect(leakedSecrets(asRun(result), [platform.tokens.org])).toEqual([]);
});

interface Operation {
  args: string[];
  outcome?: "build" | "jobRun" | "templateRun" | "addonUpgrade" | "restore" | "restart";
  start?: string;
  abort?: RegExp;
  /** A malformed flag, refused before anything is sent. */
  malformed: [string, string];
}

const OPS: Record<string, Operation> = {
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
const argsOf = (name: string) => {
  const args = [...(OPS[name]?.args ?? [])];
  if (args.at(-1)?.startsWith("--output"))
    args.push(join(tmpdir(), `cwp-cli-${process.pid}-${name}-${Date.now()}`));
  return args;
};

const STARTS_WORK = new Set([
  "trigger-build",
  "run-job",
  "run-template",
  "upgrade-addon",
  "restore-backup",
  "restart-service",
]);

describe("cwp: every operation has the action's inputs as flags", () => {
  for (const [name, { definition, metadata }] of Object.entries(OPERATIONS)) {
    it(`${name}: the definition's inputs are action.yml's, and --help lists each with an example`, async () => {
      const yml = await readActionYml(new URL(`../../../actions/${name}`, import.meta.url).pathname);
      const inputs = Object.keys(inputsOf(definition).shape).sort();
      // The actions that start work also record it as a GitHub deployment: inputs only a runner has.
      const onGitHub = STARTS_WORK.has(name) ? Object.keys(deployments.inputs) : [];
      expect([...inputs, ...onGitHub].sort()).toEqual(Object.keys(yml.inputs ?? {}).sort());
      const help = await runCli([name, "--help"]);
      expect(help.code).toBe(0);
      // An input that does nothing for this operation is taken but not offered.
      const used = inputs.filter((input) => !doesNothing(metadata.inputs[input]));
      for (const input of used) expect(help.stdout).toContain(`--${input}`);
      // A terminal records no GitHub deployment: no flag that would be ignored.
      for (const input of onGitHub) expect(help.stdout).not.toContain(`--${input} `);
      // In a terminal's words: no step, workflow cancel, runner folder or `with:` setting.
      expect(help.stdout).not.toMatch(
        /\bstep\b|workflow is cancelled|RUNNER_TEMP|job summary|Not used|\((?!default|preset)[\w-]+: \w+\)/i,
      );
      expect(help.stdout).toMatch(new RegExp(`Example .*:\n  cwp ${name} --`));
    });

    it(`${name}: the example in --help runs as written against the emulator`, async () => {
      const help = await runCli([name, "--help"]);
      const example = /Example .*:\n {2}cwp (.+)\n/.exec(help.stdout)?.[1] ?? "";
      // Shell words: plain, or in single quotes (what the examples use).
      const words = [...example.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? "");
      expect(words[0]).toBe(name);
      const cwd = await mkdtemp(join(tmpdir(), `cwp-example-${name}-`));
      const result = await cwp(words, { cwd });
      expect(result.code, result.stderr).toBe(0);
      // A relative path is where the person ran it.
      const at = words.findIndex((w) => w.startsWith("--output-"));
      if (at >= 0) expect(await readdir(cwd)).toContain(words[at + 1]);
    });
  }
});

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

    if (op.outcome)
      it(`${name}: exits 1 when the work concludes unsuccessfully`, async () => {
        await platform.control("POST", "outcomes", { kind: op.outcome, succeed: false, durationSeconds: 5 });
        const result = await cwp([name, ...argsOf(name)]);
        expect(result.code).toBe(EXIT_CODES.failed);
        expect(result.stderr).toMatch(/error: .+ ended \S+/);
      });

    if (op.outcome && op.start)
      it(`${name}: exits 130 on SIGINT, ${op.abort ? "after aborting the work" : "saying it may still run"}`, async () => {
        await platform.control("POST", "outcomes", { kind: op.outcome, durationSeconds: 36_000 });
        const result = await cwp([name, ...argsOf(name)], {
          cancelWhen: (printed) => printed.includes("Started "),
        });
        expect(result.code).toBe(EXIT_CODES.cancelled);
        expect(result.endedAt - (result.cancelledAt ?? 0)).toBeLessThan(9000);
        const aborts = op.abort
          ? (await platform.requests()).filter((r) => r.method !== "GET" && op.abort?.test(r.path))
          : [];
        expect(aborts).toHaveLength(op.abort ? 1 : 0);
        expect(result.stderr).toMatch(op.abort ? /aborted on the platform/ : /may still be running/);
        // In a terminal's words: a signal cancelled it, not a workflow.
        expect(result.stderr).toMatch(/cancelled by a signal \(Ctrl-C or SIGTERM\)/i);
        expect(result.stderr).not.toMatch(/workflow/i);
        expect(await posts(op.start ?? "")).toHaveLength(1);
      });
  }
});

describe("cwp: exit codes and secrets", () => {
  const build = ["trigger-build", ...(OPS["trigger-build"]?.args ?? [])];

  it("exits 3 when --timeout passes, after aborting the build", async () => {
    await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 36_000 });
    const result = await cwp([...build, "--timeout", "3s"]);
    expect(result.code).toBe(EXIT_CODES.timeout);
    expect(result.stderr).toMatch(/did not conclude within 3s.*aborted on the platform/);
  });

  it("exits 4 when the start's answer is lost, sending it once", async () => {
    await platform.control("POST", "faults", {
      method: "POST",
      path: "/v1/projects/platform-web/services/web/build",
      status: 503,
      after: true,
    });
    const result = await cwp(build);
    expect(result.code).toBe(EXIT_CODES.unknown);
    expect(result.stderr).toMatch(/outcome is unknown/);
    expect(await posts("/v1/projects/platform-web/services/web/build")).toHaveLength(1);
  });

  it("takes the token and URL from flags too, and never prints the token or a secret value", async () => {
    const secret = "npm_cli_s3cret_value";
    const result = await runCli(
      [
        ...build,
        "--api-token",
        platform.tokens.org,
        "--api-url",
        platform.url,
        "--build-arguments",
        `NPM_TOKEN=${secret}`,
      ],
      { env: {} },
    );
    results.push(result);
    expect(result.code, result.stderr).toBe(0);
    expect(leakedSecrets(asRun(result), [platform.tokens.org, secret])).toEqual([]);
  });

  it("redacts a masked value the platform echoes in an error, in every mode: the summary, the error, --json", async () => {
    const secret = "npm_echoed_s3cret_value";
    await platform.control("POST", "faults", {
      method: "POST",
      path: "/v1/projects/platform-web/services/web/build",
      status: 400,
      body: { error: { status: 400, message: `Invalid build argument NPM_TOKEN=${secret}`, id: "err_echo" } },
    });
    const text = await cwp([...build, "--build-arguments", `NPM_TOKEN=${secret}`]);
    expect(text.code).toBe(EXIT_CODES.failed);
    expect(text.stderr).toContain("NPM_TOKEN=***");
    await platform.control("POST", "faults", {
      method: "POST",
      path: "/v1/projects/platform-web/services/web/build",
      status: 400,
      body: { error: { status: 400, message: `Invalid build argument NPM_TOKEN=${secret}`, id: "err_echo" } },
    });
    const json = await cwp([...build, "--build-arguments", `NPM_TOKEN=${secret}`, "--json"]);
    expect(json.code).toBe(EXIT_CODES.failed);
    expect(JSON.parse(json.stdout).error.message).toContain("NPM_TOKEN=***");
    for (const result of [text, json]) expect(leakedSecrets(asRun(result), [secret])).toEqual([]);
  });

  it("asks for what to build when there is no workflow event to take it from, naming the flags", async () => {
    const result = await cwp(["trigger-build", "--project-id", "platform-web", "--service-id", "web"]);
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr).toContain(
      "--branch: is required outside a GitHub workflow: set branch, pull-request-id, sha or bundle-url",
    );
    expect(await platform.requests()).toEqual([]);
  });

  it("prints no terminal escape from the platform's text", async () => {
    await platform.control("POST", "outcomes", {
      kind: "build",
      durationSeconds: 5,
      logLines: ["\u001b[2J\u001b[Hwiped", "ok"],
    });
    const result = await cwp(build);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("\u001b[2J");
    expect(result.stdout).toContain("wiped");
  });

  it("refuses an unknown flag as bad input: exit code 2, not the 1 of work that failed, nothing sent", async () => {
    const result = await cwp([...build, "--brnach", "main"]);
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr).toContain("unknown option '--brnach'");
    expect(await platform.requests()).toEqual([]);
  });

  it("goes on waiting when a reader closes stdout (| grep -m1 Started): not a cancel, the exit code says how the work ended, no EPIPE trace", async () => {
    await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 90 });
    const ok = await cwp(build, { closeStdoutWhen: (printed) => printed.includes("Started ") });
    expect(ok.code, ok.stderr).toBe(EXIT_CODES.success);
    expect(ok.stderr).not.toMatch(/EPIPE| {4}at /);
    expect((await platform.requests()).filter((r) => r.method === "DELETE")).toEqual([]);
    // And a build that fails after the reader left still exits 1.
    await platform.reset();
    await platform.control("POST", "outcomes", { kind: "build", succeed: false, durationSeconds: 90 });
    const failed = await cwp(build, { closeStdoutWhen: (printed) => printed.includes("Started ") });
    expect(failed.code).toBe(EXIT_CODES.failed);
    expect(failed.stderr).not.toMatch(/EPIPE| {4}at /);
  });

  it("goes on waiting when both streams close (2>&1 | head -1): the build is not cut short, the exit code is the build's", async () => {
    await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 90 });
    // A status nobody listed: a warning on stderr once the reader has gone.
    await platform.control("POST", "faults", {
      method: "GET",
      path: "/v1/projects/platform-web/services/web/build/*",
      rewrite: { set: { "data.status": "REHYDRATING" } },
      times: 2,
    });
    const bin = fileURLToPath(new URL("../bin/cwp.js", import.meta.url));
    const shell = spawn(
      "bash",
      ["-c", 'node "$CWP_BIN" "$@" 2>&1 | head -1; echo "cwp exited $PIPESTATUS"', "cwp", ...build],
      {
        env: {
          ...process.env,
          ...env(),
          CWP_BIN: bin,
          PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
        },
      },
    );
    let out = "";
    shell.stdout.on("data", (chunk: Buffer) => {
      out += chunk;
    });
    await once(shell, "close");
    const lines = out.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(`cwp exited ${EXIT_CODES.success}`);
    expect((await platform.requests()).filter((r) => r.method === "DELETE")).toEqual([]);
  });

  it("with --json, every failure is one JSON object on stdout, a value the run does not have as null: an unknown flag, bad input, failed work", async () => {
    const none = { "build-id": null, status: null, image: null, sha: null, branch: null };
    const unknown = await cwp([...build, "--brnach", "main", "--json"]);
    expect(unknown.code).toBe(EXIT_CODES.input);
    expect(JSON.parse(unknown.stdout)).toEqual({
      ...none,
      concluded: null,
      success: null,
      error: {
        kind: "input",
        exitCode: EXIT_CODES.input,
        message: "unknown option '--brnach'\n(Did you mean --branch?)",
      },
    });
    const bad = await cwp([...build, "--sha", "abc", "--json"]);
    expect(bad.code).toBe(EXIT_CODES.input);
    expect(JSON.parse(bad.stdout).error).toMatchObject({ kind: "input", exitCode: EXIT_CODES.input });
    expect(JSON.parse(bad.stdout).error.message).toContain("--sha");
    expect(JSON.parse(bad.stdout)).toMatchObject({ ...none, concluded: false, success: false });
    await platform.control("POST", "outcomes", { kind: "build", succeed: false, durationSeconds: 5 });
    const failed = await cwp([...build, "--json"]);
    expect(failed.code).toBe(EXIT_CODES.failed);
    const object = JSON.parse(failed.stdout);
    expect(object).toMatchObject({ concluded: true, success: false, error: { kind: "failed", exitCode: 1 } });
    // A failed build built no image, whatever URI the platform's answer names.
    expect(object.image).toBeNull();
    expect(object["build-id"]).toMatch(/\S/);
  });

  it("with --json, escapes the C1 controls (U+0080 to U+009F) of the platform's text as well as C0", async () => {
    // CSI as one C1 character, then OSC: a terminal reading the JSON raw must not act on either.
    const message = "broke \u009b2J and \u009d0;owned\u0007 here";
    await platform.control("POST", "outcomes", {
      kind: "build",
      succeed: false,
      durationSeconds: 5,
      message,
    });
    const failed = await cwp([...build, "--json"]);
    expect(failed.code).toBe(EXIT_CODES.failed);
    // No control character but the line's end is written raw.
    expect([...failed.stdout.trimEnd()].filter((c) => c < " " || (c >= "\u007f" && c <= "\u009f"))).toEqual(
      [],
    );
    expect(failed.stdout).toContain("\\u009b2J");
    expect(JSON.parse(failed.stdout).error.message).toContain(message);
  });

  it("refuses an API token a header cannot carry: exit code 2 naming it, nothing sent", async () => {
    const result = await cwp(build, { env: { CWP_API_TOKEN: "cwp_token\nX-Injected: 1" } });
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr).toContain("error: --api-token: must be text an HTTP header can carry");
    expect(await platform.requests()).toEqual([]);
  });

  it("warns that the token travels unencrypted to plain http on another machine, not on this one", async () => {
    // 0.0.0.0 is not a loopback name, yet a connection to it stays on this machine (refused at
    // once): the warning comes before any request, and nothing leaves the machine.
    const remote = await cwp([...build, "--timeout", "1s"], { env: { CWP_API_URL: "http://0.0.0.0:9" } });
    expect(remote.stderr).toContain("plain http to another machine: the API token travels unencrypted");
    const local = await cwp(build);
    expect(local.code).toBe(0);
    expect(local.stderr).not.toContain("unencrypted");
  });

  it("answers a typo in three lines: the flag, the closest one, and where the help is", async () => {
    const result = await cwp([...build, "--projet-id", "shop"]);
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr.trim().split("\n")).toEqual([
      "error: unknown option '--projet-id'",
      "(Did you mean --project-id?)",
      "Run 'cwp trigger-build --help' for its flags.",
    ]);
    const unknown = await cwp(["trigger-biuld"]);
    expect(unknown.code).toBe(EXIT_CODES.input);
    expect(unknown.stderr.trim().split("\n").length).toBeLessThanOrEqual(3);
    expect(unknown.stderr).toContain("(Did you mean trigger-build?)");
  });

  it("takes a flag of KEY=VALUE lines once per line, and refuses any other flag given twice", async () => {
    const twice = await cwp([...build, "--branch", "dev"]);
    expect(twice.code).toBe(EXIT_CODES.input);
    expect(twice.stderr).toContain("--branch takes one value and was given more than once");
    expect(await platform.requests()).toEqual([]);
    // A bare boolean flag after a valued one is a repeat too: waiting was not what was asked.
    const wait = await cwp([...build, "--wait", "false", "--wait"]);
    expect(wait.code).toBe(EXIT_CODES.input);
    expect(wait.stderr).toContain("--wait takes one value and was given more than once");
    // Refused naming the flag, never quoting a value (which may be a token).
    const tokens = await cwp([
      ...build,
      "--api-token",
      "first_token_value",
      "--api-token",
      "second_token_value",
    ]);
    expect(tokens.code).toBe(EXIT_CODES.input);
    expect(`${tokens.stdout}${tokens.stderr}`).not.toMatch(/first_token_value|second_token_value/);
    expect(await platform.requests()).toEqual([]);
    const lines = await cwp([
      ...build,
      "--build-arguments",
      "A=1",
      "--build-arguments",
      "B=2",
      "--wait",
      "false",
    ]);
    expect(lines.code, lines.stderr).toBe(0);
    const [start] = await posts("/v1/projects/platform-web/services/web/build");
    expect(start?.body).toMatchObject({ overrides: { buildArguments: { A: "1", B: "2" } } });
  });

  it("gives advice in flags: a paused addon is upgraded with --force true, a build service given --branch", async () => {
    const result = await cwp([
      "upgrade-addon",
      "--project-id",
      "platform-batch",
      "--addon-id",
      "cache",
      "--version",
      "7.4.1",
    ]);
    expect(result.code).toBe(EXIT_CODES.failed);
    expect(result.stderr).toContain("Addon cache is paused, not running: not upgraded. Set --force true");
    const sha = "b".repeat(40);
    const build = await cwp([
      "trigger-build",
      "--project-id",
      "platform-web",
      "--service-id",
      "image-builder",
      "--sha",
      sha,
    ]);
    expect(build.code).toBe(EXIT_CODES.failed);
    expect(build.stderr).toContain(
      "set --branch <branch> or --pull-request-id <number> (with --sha <commit>",
    );
  });

  it("comments with the token in GITHUB_TOKEN, never the text of the runner expression github.token", async () => {
    // Commander wraps the help's lines.
    const help = (await cwp(["usage-report", "--help"])).stdout.replace(/\s+/g, " ");
    expect(help).toContain("(default: the GITHUB_TOKEN environment variable)");
    expect(help).not.toContain("${{");
    const github = await startGitHubStandIn("ghs_cli_workflow_token");
    try {
      const args = ["usage-report", "--comment", "issue", "--formats", "json", "--output-dir", tmpdir()];
      const repo = { GITHUB_REPOSITORY: "acme/shop", GITHUB_API_URL: github.url };
      const noToken = await cwp(args, { env: repo });
      expect(noToken.code).toBe(EXIT_CODES.input);
      expect(noToken.stderr).toContain("--github-token: is required to comment (--comment issue)");
      const noRepository = await cwp(args, { env: { GITHUB_TOKEN: "ghs_cli_workflow_token" } });
      expect(noRepository.code).toBe(EXIT_CODES.input);
      expect(noRepository.stderr).toContain("--comment: needs the GitHub repository to post to");
      expect(await platform.requests()).toEqual([]);
      const posted = await cwp(args, { env: { ...repo, GITHUB_TOKEN: "ghs_cli_workflow_token" } });
      expect(posted.code, posted.stderr).toBe(0);
      expect(github.issues).toHaveLength(1);
      expect(github.violations).toEqual([]);
      expect(leakedSecrets(asRun(posted), ["ghs_cli_workflow_token"])).toEqual([]);
    } finally {
      await github.close();
    }
  });

  it("types usage-report's --json: amounts and percentages as numbers, one it does not have as null; over budget, it says where the files went", async () => {
    const dir = join(tmpdir(), `cwp-cli-typed-${process.pid}`);
    const args = ["usage-report", "--period", "last-30-days", "--formats", "json", "--output-dir", dir];
    const plain = await cwp([...args, "--json"]);
    expect(plain.code, plain.stderr).toBe(0);
    const outputs = JSON.parse(plain.stdout) as Record<string, unknown>;
    expect(outputs).toMatchObject({ currency: "USD", "over-budget": false, "budget-used-percent": null });
    for (const name of ["total", "previous-total", "change-percent"])
      expect(outputs[name]).toBeTypeOf("number");
    const report = JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as { total: string };
    expect(outputs.total).toBe(Number(Number(report.total).toFixed(2)));

    const over = await cwp([...args, "--budget", "1", "--fail-on-budget-exceeded", "--json"]);
    expect(over.code).toBe(EXIT_CODES.failed);
    const failed = JSON.parse(over.stdout) as Record<string, unknown> & { error: { message: string } };
    expect(failed).toMatchObject({ "over-budget": true, "report-dir": dir });
    expect(failed["budget-used-percent"]).toBeTypeOf("number");
    expect(failed.error.message).toContain(`over the budget of 1.00 USD`);
    expect(failed.error.message).toContain(`the report is in ${dir}`);
    expect(over.stderr).toContain(`the report is in ${dir}`);
  });

  it("prints usage-report as a terminal reads it: words, aligned tables and a chart in blocks, no Markdown; the files keep the Markdown", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-cli-text-"));
    const result = await cwp([
      "usage-report",
      "--period",
      "last-30-days",
      "--group-by",
      "team",
      "--budget",
      "100000",
      "--output-dir",
      dir,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    for (const markdown of ["<!--", "```", "<details>", "<sub>", "|---", "**", "###"])
      expect(out).not.toContain(markdown);
    expect(out).toMatch(
      /^Total: [\d,]+\.\d\d USD, (up|down) [\d,]+\.\d\d USD \([\d.]+%\) from [\d,]+\.\d\d USD in the period before \(/m,
    );
    expect(out).toMatch(/^Budget: 100,000\.00 USD, [\d.]+% used: under budget\.$/m);
    // A table's columns line up: every row of "By team" is as long as its rule.
    const lines = out.split("\n");
    const at = lines.indexOf("By team (USD)");
    const rule = lines[at + 2] ?? "";
    expect(rule).toMatch(/^─+( +─+)+$/);
    const end = lines.findIndex((l, i) => i > at && l.startsWith("Total "));
    for (const row of lines.slice(at + 1, end + 1)) expect(row.length).toBe(rule.length);
    // One bar a day, the largest day the full width.
    const bars = lines.filter((l) => /^\d{4}-\d\d-\d\d +[\d,.]+ +[█▏▎▍▌▋▊▉]*$/.test(l));
    expect(bars).toHaveLength(30);
    expect(Math.max(...bars.map((l) => (l.match(/█/g) ?? []).length))).toBe(40);
    expect(await readFile(join(dir, "report.md"), "utf8")).toContain("<!-- cwp-usage-report -->");
  });

  it("writes usage-report's files where --output-dir says, the FOCUS dataset as Parquet too", async () => {
    const dir = join(tmpdir(), `cwp-cli-report-${process.pid}`);
    const result = await cwp([
      "usage-report",
      "--period",
      "last-30-days",
      "--formats",
      "json,focus-parquet",
      "--output-dir",
      dir,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, "report.json"), "utf8"))).toBeTypeOf("object");
    // A whole Parquet file: "PAR1" at both ends, its footer in between (the action's tests read it).
    const parquet = await readFile(join(dir, "focus.parquet"));
    expect(parquet.subarray(0, 4).toString()).toBe("PAR1");
    expect(parquet.subarray(-4).toString()).toBe("PAR1");
    expect(parquet.length).toBeGreaterThan(1000);
  });
});

describe("cwp: connection mistakes, said before anything is sent", () => {
  const build = ["trigger-build", ...(OPS["trigger-build"]?.args ?? [])];
  it("reports a missing token and a missing URL together", async () => {
    const result = await cwp([...build], { env: { CWP_API_TOKEN: "", CWP_API_URL: "" } });
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr).toContain("--api-token: is required");
    expect(result.stderr).toContain("--api-url: is required");
    expect(await platform.requests()).toEqual([]);
  });

  it("says a URL that already ends in /v1 is one /v1 too many", async () => {
    const result = await cwp([...build], { env: { CWP_API_URL: `${platform.url}/v1/` } });
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr).toContain("--api-url: must be the API's base URL, without the /v1 at its end");
    expect(await platform.requests()).toEqual([]);
  });

  it("says https against the emulator's plain http is the wrong scheme, naming the URL to use; nothing started", async () => {
    const http = new URL(platform.url);
    const result = await cwp([...build], { env: { CWP_API_URL: `https://${http.host}` } });
    expect(result.code).toBe(EXIT_CODES.failed);
    expect(result.stderr).toContain(`speaks plain http, not https; is the API URL http://${http.host}?`);
    expect(result.stderr).toContain("no connection was made");
    expect(await platform.requests()).toEqual([]);
  });

  const PAGE = "<!doctype html><title>Acme</title><p>Welcome";
  it.each([
    ["200 with a web page", 200, { "content-type": "text/html" }, PAGE],
    ["302 to a login page", 302, { location: "https://login.example.com/sso" }, PAGE],
    ["405", 405, { "content-type": "text/html" }, PAGE],
    ["404 with a web page", 404, { "content-type": "text/html; charset=utf-8" }, PAGE],
    // Another product's JSON API: every answer of ours has "data" (the spec, §1).
    ["200 with another API's JSON", 200, { "content-type": "application/json" }, '{"ok": true, "items": []}'],
  ] as const)(
    "says a URL that answers %s is not the API, to check the URL; nothing started, never 'outcome unknown'",
    async (_, status, headers, answer) => {
      const site = createServer((req, res) => {
        req.resume();
        res.writeHead(status, headers).end(answer);
      });
      site.listen(0, "127.0.0.1");
      await once(site, "listening");
      const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      try {
        const result = await cwp([...build], { env: { CWP_API_URL: url } });
        expect(result.code).toBe(EXIT_CODES.failed);
        expect(result.stderr).toContain(
          `${url} is not the API: check the API URL (api-url / CWP_API_URL). Nothing was started there`,
        );
        expect(result.stderr).not.toMatch(/outcome is unknown|may have acted/);
        // --json says the same, and no build.
        const json = await cwp([...build, "--json"], { env: { CWP_API_URL: url } });
        expect(json.code).toBe(EXIT_CODES.failed);
        expect(JSON.parse(json.stdout.trim())).toMatchObject({
          "build-id": null,
          error: { message: expect.stringContaining(`${url} is not the API: check the API URL`) },
        });
      } finally {
        site.close();
      }
    },
  );

  it("says where the wait stands from its start, before a first poll that history puts minutes away", async () => {
    // Two builds of 10 minutes: the next one's first poll is planned minutes in.
    for (let i = 0; i < 2; i++) {
      await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 600 });
      expect((await cwp([...build, "--wait", "false"])).code).toBe(0);
    }
    await platform.control("POST", "clock", { advanceSeconds: 1200 });
    await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 36_000 });
    await platform.control("DELETE", "requests");
    // In a terminal (a pseudo-terminal from `script`), the wait's line is drawn as it begins.
    const command = [process.execPath, BIN, ...build, "--timeout", "30s"].map((w) => `'${w}'`).join(" ");
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", TERM: "xterm", ...env() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const begun = Date.now();
    const drawn = new Promise<number>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk;
        if (/\[0s\] build \S+ of service web in project platform-web: \w+/.test(out)) resolve(Date.now());
      });
    });
    const at = await Promise.race([drawn, new Promise<number>((r) => setTimeout(() => r(-1), 15_000))]);
    const reads = (await platform.requests()).filter(
      (r) => r.method === "GET" && /\/build\/[^/]+$/.test(r.path),
    );
    child.kill("SIGINT");
    await once(child, "close");
    expect(at, out).toBeGreaterThan(0);
    expect(at - begun).toBeLessThan(10_000);
    // Drawn before the first poll: no read of the build had been made.
    expect(reads).toEqual([]);
  });

  it("names the input and the value of a wrong project or service id (a 404 on the resource)", async () => {
    const project = await cwp([
      "trigger-build",
      "--project-id",
      "no-such-project",
      "--service-id",
      "web",
      "--branch",
      "main",
    ]);
    expect(project.code).toBe(EXIT_CODES.failed);
    expect(project.stderr).toContain("error: --project-id: no project `no-such-project` (");
    const service = await cwp([
      "trigger-build",
      "--project-id",
      "platform-web",
      "--service-id",
      "nope",
      "--branch",
      "main",
    ]);
    expect(service.code).toBe(EXIT_CODES.failed);
    expect(service.stderr).toContain("error: --service-id: no service `nope` in project `platform-web` (");
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
