import { spawn } from "node:child_process";
import { once } from "node:events";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { machineEnv } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { EXIT_CODES } from "../src/exit-codes.js";
import { BUILD, cwp, env, OPS, platform, posts, useCliHarness } from "./cli-harness.js";

useCliHarness();

// `cwp <operation>`: what it prints where: pipes that close, --json, flags (cli-harness.ts runs it;
// exit codes: cli-exit-codes.test.ts; secrets and escapes never printed: cli-secrets.test.ts;
// usage-report's output: cli-usage-report.test.ts; the token's mistakes: cli-connection.test.ts).

describe("cwp: pipes, --json and flags", () => {
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
      ["-c", 'node "$CWP_BIN" "$@" 2>&1 | head -1; echo "cwp exited $PIPESTATUS"', "cwp", ...BUILD],
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
    const unknown = await cwp([...BUILD, "--brnach", "main", "--json"]);
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
    const bad = await cwp([...BUILD, "--sha", "abc", "--json"]);
    expect(bad.code).toBe(EXIT_CODES.input);
    expect(JSON.parse(bad.stdout).error).toMatchObject({ kind: "input", exitCode: EXIT_CODES.input });
    expect(JSON.parse(bad.stdout).error.message).toContain("--sha");
    expect(JSON.parse(bad.stdout)).toMatchObject({ ...none, concluded: false, success: false });
    await platform.control("POST", "outcomes", { kind: "build", succeed: false, durationSeconds: 5 });
    const failed = await cwp([...BUILD, "--json"]);
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
    const failed = await cwp([...BUILD, "--json"]);
    expect(failed.code).toBe(EXIT_CODES.failed);
    // No control character but the line's end is written raw.
    expect([...failed.stdout.trimEnd()].filter((c) => c < " " || (c >= "\u007f" && c <= "\u009f"))).toEqual(
      [],
    );
    expect(failed.stdout).toContain("\\u009b2J");
    expect(JSON.parse(failed.stdout).error.message).toContain(message);
  });

  it("answers a typo in three lines: the flag, the closest one, and where the help is", async () => {
    const result = await cwp([...BUILD, "--projet-id", "shop"]);
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
    const twice = await cwp([...BUILD, "--branch", "dev"]);
    expect(twice.code).toBe(EXIT_CODES.input);
    expect(twice.stderr).toContain("--branch takes one value and was given more than once");
    expect(await platform.requests()).toEqual([]);
    // A bare boolean flag after a valued one is a repeat too: waiting was not what was asked.
    const wait = await cwp([...BUILD, "--wait", "false", "--wait"]);
    expect(wait.code).toBe(EXIT_CODES.input);
    expect(wait.stderr).toContain("--wait takes one value and was given more than once");
    // Refused naming the flag, never quoting a value (which may be a token).
    const tokens = await cwp([
      ...BUILD,
      "--api-token",
      "first_token_value",
      "--api-token",
      "second_token_value",
    ]);
    expect(tokens.code).toBe(EXIT_CODES.input);
    expect(`${tokens.stdout}${tokens.stderr}`).not.toMatch(/first_token_value|second_token_value/);
    expect(await platform.requests()).toEqual([]);
    const lines = await cwp([
      ...BUILD,
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
});
