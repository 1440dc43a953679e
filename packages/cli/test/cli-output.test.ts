import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { leakedSecrets, machineEnv, startGitHubStandIn } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { EXIT_CODES } from "../src/exit-codes.js";
import { asRun, cwp, env, OPS, platform, posts, useCliHarness } from "./cli-harness.js";

useCliHarness();

// `cwp <operation>`: what it prints where: pipes that close, --json, flags, usage-report's files
// (cli-harness.ts runs it; exit codes and secrets: cli-exit-codes.test.ts).

describe("cwp: pipes, --json, flags and files", () => {
  const build = ["trigger-build", ...(OPS["trigger-build"]?.args ?? [])];

  it("ends quietly when the reader of its help or version closes the pipe (| head -1): every command, exit 0, no EPIPE trace", async () => {
    const bin = fileURLToPath(new URL("../bin/cwp.js", import.meta.url));
    const commands = [
      ...Object.keys(OPS).map((op) => [op, "--help"]),
      ["rehearse", "--help"],
      ["emulator", "--help"],
      ["--help"],
      ["--version"],
    ];
    // As a user types each: the shell's pipe, head exiting after its line. Not spawnSync: the
    // emulator runs in this process, and a blocked event loop lets its idle connections close
    // under the next test's request (ECONNRESET). All at once: none depends on another.
    const endings = commands.map(async (args) => {
      const shell = spawn(
        "bash",
        [
          "-c",
          'node "$CWP_BIN" "$@" | head -1 > /dev/null; echo "cwp exited ${PIPESTATUS[0]}"',
          "cwp",
          ...args,
        ],
        {
          env: { ...machineEnv(), CWP_BIN: bin, PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
          // No standard input: on a socket, bash takes itself for a remote shell and reads ~/.bashrc.
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let [stdout, stderr] = ["", ""];
      shell.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk;
      });
      shell.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk;
      });
      await once(shell, "close");
      return { command: args.join(" "), stdout, stderr };
    });
    for (const { command, stdout, stderr } of await Promise.all(endings)) {
      expect(stderr, command).toBe("");
      expect(stdout, command).toBe("cwp exited 0\n");
    }
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

  it("refuses an --output-dir whose focus/ is a file, naming the flag and the path: exit 2, --json too, nothing sent", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-cli-focus-file-"));
    await writeFile(join(dir, "focus"), "not a folder\n");
    const args = [
      "usage-report",
      "--period",
      "last-month",
      "--formats",
      "focus-parquet",
      "--focus-layout",
      "partitioned",
    ];
    const said = `${join(dir, "focus")} is a file, where the FOCUS dataset's folder goes: move it away, or write the report to another folder (nothing was read or written)`;
    const text = await cwp([...args, "--billing-account-name", "Acme Corp", "--output-dir", dir]);
    expect(text.code).toBe(EXIT_CODES.input);
    expect(text.stderr).toContain(`--output-dir: ${said}`);
    const json = await cwp([...args, "--billing-account-name", "Acme Corp", "--output-dir", dir, "--json"]);
    expect(json.code).toBe(EXIT_CODES.input);
    expect(JSON.parse(json.stdout.trim())).toMatchObject({
      error: { kind: "input", message: expect.stringContaining(said) },
    });
    expect(await platform.requests()).toEqual([]);
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
