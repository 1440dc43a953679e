import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT_CODES } from "../src/exit-codes.js";
import { job, rehearse, run, userMachine } from "./rehearse-machine.js";
import { runCli } from "./run-cli.js";

// `cwp rehearse` and the files it reads and hands on: workflow files built to exhaust it, refused
// as bad input, and the file commands a step writes, read as the runner reads them (the machine
// and its secrets: rehearse-safety.test.ts). Each case cites the GitHub page whose rule it holds
// the rehearsal to.

// Each is refused in well under a second of CPU (workflow-rehearsal's hostile.test.ts measures it
// in one process); here, a whole CLI run on a loaded machine, the bound is on a hang only: without
// the guards these ran for minutes.
const HANG = 30_000;

describe("cwp rehearse: hostile files, refused as bad input", () => {
  const hostile = async (text: string) => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-hostile-"));
    const file = join(dir, "w.yml");
    await writeFile(file, text);
    const began = Date.now();
    // A heap of 600 MB: a file that needed more would end the process, not pass.
    const result = await runCli(["rehearse", file], {
      env: { NO_COLOR: "1" },
      nodeOptions: ["--max-old-space-size=600"],
    });
    return { ...result, ms: Date.now() - began };
  };

  it("an alias bomb", async () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 10; i++)
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(", ")}]`,
      );
    const result = await hostile(
      `${levels.join("\n")}\non: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: echo *j\n`,
    );
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr).toMatch(/not read: its YAML aliases expand it to more than 100,000 values/);
    expect(result.ms).toBeLessThan(HANG);
  });

  it("a flow sequence 20,000 deep", async () => {
    const result = await hostile(`on: push\njobs: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n`);
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr).toMatch(/not read: it nests more than 64 levels deep/);
    expect(result.stderr).not.toMatch(/Maximum call stack|RangeError/);
    expect(result.ms).toBeLessThan(HANG);
  });

  it("a 1 MB expression", async () => {
    const result = await hostile(
      `on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: echo \${{ ${"github.sha || ".repeat(80_000)}github.sha }}\n`,
    );
    expect(result.code).toBe(EXIT_CODES.input);
    // GitHub's parser names the error by its type (the expressions package's own text is
    // "Exceeded max expression length 21000"), with its line and column.
    expect(result.stderr).toMatch(/\(Line: 6, Col: 14\): ErrorExceededMaxLength/);
    expect(result.ms).toBeLessThan(HANG);
  });
});

describe("cwp rehearse --run-shell: what a step hands on, read as the runner reads it", () => {
  // "Workflow commands": environment files, multiline strings, and "You can't overwrite the value
  // of the GITHUB_* and RUNNER_* ... NODE_OPTIONS": https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#environment-files
  const handsOn = async (script: string) => {
    const machine = await userMachine(job(`${run(script)}${run("echo the next step ran")}`));
    return rehearse(machine);
  };

  it("fails the step on a heredoc without its closing delimiter", async () => {
    const result = await handsOn(
      'echo "notes<<EOF" >> "$GITHUB_OUTPUT"\necho "line one" >> "$GITHUB_OUTPUT"',
    );
    expect(result.code).toBe(EXIT_CODES.failed);
    expect(result.stdout).toContain("Matching delimiter not found 'EOF'");
    expect(result.stdout).not.toContain("│ the next step ran");
  });

  it("fails the step on a line that is neither NAME=value nor a heredoc", async () => {
    const result = await handsOn('echo "just words" >> "$GITHUB_ENV"');
    expect(result.code).toBe(EXIT_CODES.failed);
    expect(result.stdout).toContain("Invalid format 'just words'");
  });

  // The runner leaves NODE_OPTIONS out with an error annotation, and the step and the job go on
  // (actions/runner src/Runner.Worker/FileCommandManager.cs, SetEnvFileCommand: AddIssue, no failure).
  it("leaves NODE_OPTIONS out of GITHUB_ENV with the runner's error, the job going on without it", async () => {
    const result = await handsOn(
      'echo "NODE_OPTIONS=--require /tmp/evil.js" >> "$GITHUB_ENV"\necho "KEPT=yes" >> "$GITHUB_ENV"',
    );
    expect(result.code, result.stdout).toBe(EXIT_CODES.success);
    expect(result.stdout).toContain("Can't store NODE_OPTIONS output parameter using '$GITHUB_ENV' command.");
    expect(result.stdout).toContain("the next step ran");
  });

  it("reads a file command the step deleted as no command, and names the file the runner could not read", async () => {
    const deleted = await handsOn('echo "a=1" >> "$GITHUB_OUTPUT"; rm "$GITHUB_OUTPUT" "$GITHUB_ENV"');
    expect(deleted.code, deleted.stdout).toBe(EXIT_CODES.success);
    const broken = await handsOn('echo "just words" >> "$GITHUB_STATE"');
    expect(broken.stdout).toContain("Error: Unable to process file command 'state' successfully.");
    expect(broken.stdout).toContain("Error: Invalid format 'just words'");
  });

  // "Expressions", hashFiles: "a set of files in the repository" (under GITHUB_WORKSPACE):
  // https://docs.github.com/en/actions/reference/workflows-and-actions/expressions#hashfiles
  it("hashFiles reads nothing outside the workspace", async () => {
    const machine = await userMachine(
      job(
        run(
          "echo \"outside=[${{ hashFiles('/etc/passwd', '/etc/*', '../home/**') }}] inside=[${{ hashFiles('README.md') }}]\"",
        ),
      ),
    );
    const result = await rehearse(machine);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/│ outside=\[\] inside=\[[0-9a-f]{64}\]/);
  });
});
