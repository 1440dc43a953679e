import { describe, expect, it } from "vitest";
import { job, onPath, printed, rehearse, userMachine } from "./rehearse-machine.js";

// `cwp rehearse --run-shell` runs a job's `run:` steps as GitHub's runner runs them on Linux (its
// actions and jobs: rehearse-runner-actions.test.ts, rehearse-runner-jobs.test.ts). Each case
// states GitHub's documented outcome and cites its page; a job that fails on GitHub fails here.

const SYNTAX = "https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax";
const VARIABLES = "https://docs.github.com/en/actions/reference/workflows-and-actions/variables";

describe(`shell: (${SYNTAX}#jobsjob_idstepsshell) and defaults.run (${SYNTAX}#defaultsrun)`, () => {
  it("runs each script in its shell, with the extension it expects; no pipefail without shell:", async () => {
    const machine = await userMachine(`on: push
defaults:
  run:
    shell: sh
jobs:
  a:
    runs-on: ubuntu-latest
    defaults:
      run:
        shell: bash
    steps:
      # The job's defaults.run.shell (bash) wins over the workflow's (sh).
      - run: echo "job default $(cat /proc/$$/comm) \${0##*.}"
      # sh -e {0}
      - run: echo "step $(cat /proc/$$/comm) \${0##*.}"
        shell: sh
      # bash --noprofile --norc -eo pipefail {0}: a failing pipe fails the step.
      - id: piped
        run: false | true
        shell: bash
        continue-on-error: true
      # A custom shell: COMMAND [options] {0} [options].
      - run: |
          false | true && echo "bash -e {0}, no pipefail \${0##*.}"
        shell: bash -e {0}
      - run: the script, copied by a custom shell
        shell: cp {0} copied.txt
      # The script as written, without a newline at its end (a plain scalar has none).
      - run: cat copied.txt; echo; echo "piped \${{ steps.piped.outcome }}"
      # python {0}, its file .py: put a python on PATH the way a workflow does (GITHUB_PATH).
      - run: mkdir -p "$RUNNER_TEMP/bin" && ln -s "$(command -v python3)" "$RUNNER_TEMP/bin/python" && echo "$RUNNER_TEMP/bin" >> "$GITHUB_PATH"
      - run: |
          import sys
          print("python", sys.argv[0].rsplit(".", 1)[1])
        shell: python
`);
    const result = await rehearse(machine);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(printed(result.stdout)).toEqual([
      "job default bash sh",
      "step sh sh",
      // The extension is the command's (bash: .sh), whatever options follow it.
      "bash -e {0}, no pipefail sh",
      "the script, copied by a custom shell",
      "piped failure",
      "python py",
    ]);
    expect(result.stdout).toContain("(run: shell cp {0} copied.txt, --run-shell)");
    // A step without a name is titled "Run " and its script's first line as written, \${{ }} and all.
    expect(result.stdout).toContain(
      '▶ Run cat copied.txt; echo; echo "piped ${{ steps.piped.outcome }}" (run:',
    );
    expect(result.stdout).toContain("▶ Run import sys (run: shell python, --run-shell)");
  });

  it("runs shell: pwsh as the runner starts it: pwsh -command \". '{0}'\", a .ps1 between $ErrorActionPreference and an exit with $LASTEXITCODE", async () => {
    // PowerShell is not on this machine: a stand-in named pwsh shows what reaches it.
    const machine = await userMachine(job("      - run: Write-Output hi\n        shell: pwsh\n"));
    const env = await onPath(machine, {
      pwsh: `#!/bin/sh\necho "$1"\nfile=$(printf '%s' "$2" | cut -c4- | sed 's/.$//')\necho "\${file##*.}"\ncat "$file"\n`,
    });
    const result = await rehearse(machine, [], env);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(printed(result.stdout)).toEqual([
      "-command",
      "ps1",
      "$ErrorActionPreference = 'stop'",
      "Write-Output hi",
      "if ((Test-Path -LiteralPath variable:\\LASTEXITCODE)) { exit $LASTEXITCODE }",
    ]);
  });

  it("with no shell: anywhere, runs bash -e {0}: a failing pipe passes, a failing command fails the job", async () => {
    const machine = await userMachine(`on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: false | true; echo "pipe passed in $(cat /proc/$$/comm)"
      - run: |
          false
          echo "not reached"
      - run: echo "not run after a failure"
`);
    const result = await rehearse(machine);
    expect(result.code).toBe(1);
    expect(printed(result.stdout)).toEqual(["pipe passed in bash"]);
    expect(result.stdout).toContain("✘ job a would fail");
  });

  // "Contexts", context availability: jobs.<job_id>.defaults.run takes github, needs, strategy,
  // matrix, env, vars and inputs (https://docs.github.com/en/actions/reference/workflows-and-actions/contexts#context-availability).
  it("evaluates a job's defaults.run written as expressions: the shell and the folder they give", async () => {
    const machine = await userMachine(`on: push
jobs:
  a:
    runs-on: ubuntu-latest
    env:
      MY_SHELL: python
    defaults:
      run:
        shell: \${{ env.MY_SHELL }}
        working-directory: \${{ github.workspace }}/sub
    steps:
      - run: mkdir sub
        shell: bash
        working-directory: .
      - run: |
          import os, sys
          print("python", os.path.basename(os.getcwd()))
`);
    const result = await rehearse(machine);
    expect(result.code, result.stdout).toBe(0);
    expect(printed(result.stdout)).toEqual(["python sub"]);
  });

  it("fails a step whose shell is not on PATH, or whose custom shell has no {0}, with the runner's message", async () => {
    const machine = await userMachine(`on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: echo one
        shell: no-such-shell {0}
        continue-on-error: true
      - run: echo two
        shell: bash -e
`);
    const result = await rehearse(machine);
    expect(result.code).toBe(1);
    expect(printed(result.stdout)).toEqual([
      "Error: File not found: 'no-such-shell'",
      "Error: Invalid shell option. Shell must be a valid built-in (bash, sh, cmd, powershell, pwsh) or a format string containing '{0}'",
    ]);
  });
});

describe(`working-directory: (${SYNTAX}#jobsjob_idstepsworking-directory)`, () => {
  it("runs in the folder the step or defaults.run names, relative to the workspace; a missing one fails the step", async () => {
    const machine = await userMachine(`on: push
defaults:
  run:
    working-directory: packages
jobs:
  a:
    runs-on: ubuntu-latest
    defaults:
      run:
        working-directory: packages/app
    steps:
      - run: mkdir -p packages/app/src && echo "made in \${PWD#"$GITHUB_WORKSPACE"}."
        working-directory: .
      - run: echo "job default \${PWD#"$GITHUB_WORKSPACE"}"
      - run: echo "step \${PWD#"$GITHUB_WORKSPACE"}"
        working-directory: \${{ format('packages/{0}/src', 'app') }}
      - run: echo "never"
        working-directory: packages/missing
`);
    const result = await rehearse(machine);
    expect(result.code).toBe(1);
    const lines = printed(result.stdout);
    expect(lines.slice(0, 3)).toEqual(["made in .", "job default /packages/app", "step /packages/app/src"]);
    expect(lines[3]).toMatch(
      /^Error: An error occurred trying to start process '\S+\/bash' with working directory '\S+\/work\/rehearsal\/rehearsal\/packages\/missing'\. No such file or directory$/,
    );
    expect(result.stdout).toContain('✘ job a would fail: "Run echo "never"" failed');
  });

  // actions/runner src/Runner.Worker/Handlers/ScriptHandler.cs: Path.Combine(workspace, working-directory).
  it("runs a step where an absolute working-directory says, as on GitHub", async () => {
    const machine = await userMachine(`on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: pwd
        working-directory: /
`);
    const result = await rehearse(machine);
    expect(result.code, result.stdout).toBe(0);
    expect(printed(result.stdout)).toEqual(["/"]);
  });
});

describe(`default variables (${VARIABLES}#default-environment-variables)`, () => {
  it("gives every step GitHub's default variables, with the values of the github and runner contexts", async () => {
    const machine = await userMachine(`on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: |
          for name in GITHUB_ACTION GITHUB_ACTOR GITHUB_ACTOR_ID GITHUB_JOB GITHUB_REF_NAME GITHUB_RUN_ID RUNNER_OS; do
            echo "$name=\${!name}"
          done
          test -d "$RUNNER_TEMP" && test -s "$GITHUB_EVENT_PATH" && echo "event $(grep -o '"ref":"[^"]*"' "$GITHUB_EVENT_PATH")"
      - id: second
        run: echo "\${{ github.action }} $GITHUB_ACTION \${{ github.actor_id }} \${{ github.job }} \${{ runner.os }}"
`);
    const result = await rehearse(machine);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(printed(result.stdout)).toEqual([
      // A script without an id is __run ("GITHUB_ACTION", the page above).
      "GITHUB_ACTION=__run",
      "GITHUB_ACTOR=rehearsal",
      "GITHUB_ACTOR_ID=1",
      "GITHUB_JOB=build",
      "GITHUB_REF_NAME=main",
      "GITHUB_RUN_ID=1",
      "RUNNER_OS=Linux",
      'event "ref":"refs/heads/main"',
      "second second 1 build Linux",
    ]);
    // What only a real run has is said to be made up, once.
    const madeUp = result.stdout.split("\n").filter((line) => line.includes("made up"));
    expect(madeUp).toHaveLength(1);
    expect(madeUp[0]).toContain("github.run_id=1");
    expect(madeUp[0]).toContain("github.actor_id=1");
  });
});

const COMMANDS = "https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands";

describe(`workflow commands in a step's output (${COMMANDS})`, () => {
  const workflow = `on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - id: old
        run: |
          echo "::set-output name=version::1.2.3"
          echo "::save-state name=pid::42"
          echo "::group::Compiling"
          echo "inside"
          echo "::endgroup::"
          echo "::error file=src/app.ts,line=3,col=7,title=Type error::Missing semicolon"
          echo "::warning::Careful%0Atwo lines"
          echo "::notice file=README.md::Read me"
          echo "::debug::shown with step debug only"
      - run: echo "version \${{ steps.old.outputs.version }}"
      - id: refused
        run: echo "::set-env name=FROM_COMMAND::no"
        continue-on-error: true
      - run: echo "outcome \${{ steps.refused.outcome }} [$FROM_COMMAND]"
      - run: |
          echo "::set-env name=FROM_COMMAND::yes"
          echo "::add-path::/opt/from-command"
        env:
          ACTIONS_ALLOW_UNSECURE_COMMANDS: true
      - run: echo "env $FROM_COMMAND, path $(echo "$PATH" | tr ':' '\\n' | grep -c '^/opt/from-command$')"
`;

  it("honours set-output and save-state with GitHub's deprecation warning, set-env and add-path only where allowed; annotations and groups shown", async () => {
    const result = await rehearse(await userMachine(workflow));
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const deprecated = (command: string) =>
      `Warning: The \`${command}\` command is deprecated and will be disabled soon. Please upgrade to using Environment Files. For more information see: https://github.blog/changelog/2022-10-11-github-actions-deprecating-save-state-and-set-output-commands/`;
    expect(printed(result.stdout)).toEqual([
      deprecated("set-output"),
      deprecated("save-state"),
      "▼ Compiling",
      "inside",
      "Error: src/app.ts:3:7: Type error: Missing semicolon",
      // %0A is a newline in the message, which the printer shows as ⏎ on one line.
      "Warning: Careful ⏎ two lines",
      "Notice: README.md: Read me",
      "version 1.2.3",
      // Without ACTIONS_ALLOW_UNSECURE_COMMANDS the runner refuses set-env, and the step fails.
      "Error: Unable to process command '::set-env name=FROM_COMMAND::no' successfully.",
      "Error: The `set-env` command is disabled. Please upgrade to using Environment Files or opt into unsecure command execution by setting the `ACTIONS_ALLOW_UNSECURE_COMMANDS` environment variable to `true`. For more information see: https://github.blog/changelog/2020-10-01-github-actions-deprecating-set-env-and-add-path-commands/",
      "outcome failure []",
      "env yes, path 1",
    ]);
  });

  // actions/runner src/Runner.Common/ActionCommand.cs @42fe3105 (TryParseV2, TryParse) and
  // src/Runner.Worker/ActionCommandManager.cs @02523b9a (SetOutputCommandExtension).
  it("reads command names in any case and the ##[ form anywhere in a line; a set-output without a name fails the step", async () => {
    const result = await rehearse(
      await userMachine(`on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - id: forms
        run: |
          echo "::SET-OUTPUT NAME=upper::1"
          echo "log text ##[set-output name=legacy;]2"
      - run: echo "upper \${{ steps.forms.outputs.upper }}, legacy \${{ steps.forms.outputs.legacy }}"
      - run: echo "::set-output::3"
`),
    );
    expect(result.code).toBe(1);
    const lines = printed(result.stdout);
    expect(lines).toContain("upper 1, legacy 2");
    expect(lines).toContain("Error: Unable to process command '::set-output::3' successfully.");
    expect(lines).toContain("Error: Required field 'name' is missing in ##[set-output] command.");
  });

  it("shows ::debug:: lines where ACTIONS_STEP_DEBUG is true", async () => {
    const result = await rehearse(await userMachine(workflow), ["--var", "ACTIONS_STEP_DEBUG=true"]);
    expect(printed(result.stdout)).toContain("Debug: shown with step debug only");
  });
});
