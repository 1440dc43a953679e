import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { job, onPath, printed, rehearse, run, userMachine } from "./rehearse-machine.js";

// `cwp rehearse --run-shell` runs a job's `run:` steps as GitHub's runner runs them on Linux.
// Each case states GitHub's documented outcome and cites its page; a job that fails on GitHub
// fails here.

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

const METADATA = "https://docs.github.com/en/actions/reference/workflows-and-actions/metadata-syntax";

describe(`local actions (uses: ./path; ${METADATA})`, () => {
  // docs/rehearse.md's example, as written there (packages/cli/test/fixtures/local-composite).
  const fixture = (name: string) =>
    readFileSync(new URL(`fixtures/local-composite/${name}`, import.meta.url), "utf8");
  const example = {
    ".github/workflows/w.yml": fixture("workflow.yml"),
    ".github/actions/setup/action.yml": fixture("setup-action.yml"),
    ".github/actions/nested/action.yaml": fixture("nested-action.yml"),
  };

  it("runs a composite action's steps with its inputs and defaults, nested actions, outputs and GITHUB_ENV; a missing one fails with GitHub's message", async () => {
    const page = readFileSync(new URL("../../../docs/rehearse.md", import.meta.url), "utf8");
    for (const text of Object.values(example)) expect(page).toContain(text);
    const { ".github/workflows/w.yml": workflow, ...actions } = example;
    const machine = await userMachine(workflow, actions);
    const result = await rehearse(machine);
    expect(result.code).toBe(1);
    const lines = printed(result.stdout);
    expect(lines.slice(0, 3)).toEqual([
      "Hello, world, from setup",
      "nested, in sh",
      "version 1.2.3, nested yes",
    ]);
    expect(lines[3]).toMatch(
      /^Error: Can't find 'action\.yml', 'action\.yaml' or 'Dockerfile' under '\S+\/work\/rehearsal\/rehearsal\/\.github\/actions\/missing'\. Did you forget to run actions\/checkout before running your local action\?$/,
    );
    // Its steps are named after it; a step its if: skips is skipped.
    expect(result.stdout).toContain('− ./.github/actions/setup › Run echo "not for nobody"');
    expect(result.stdout).toContain('✘ job a would fail: "./.github/actions/missing" failed');
  });

  it("fails the job where a step of the composite action fails; lists a Docker action as not rehearsed", async () => {
    const machine = await userMachine(
      `on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - uses: ./.github/actions/image
      - uses: ./.github/actions/breaks
`,
      {
        ".github/actions/image/Dockerfile": "FROM alpine\n",
        ".github/actions/breaks/action.yml":
          "name: Breaks\ndescription: d\nruns:\n  using: composite\n  steps:\n    - run: exit 3\n      shell: bash\n    - run: echo never\n      shell: bash\n",
      },
    );
    const result = await rehearse(machine);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "not rehearsed: a Docker action, which needs Docker: the rehearsal does not run it",
    );
    expect(result.stdout).toContain("✘ failure (exit code 3)");
    expect(printed(result.stdout)).not.toContain("never");
    expect(result.stdout).toMatch(/✘ job a would fail: .*"\.\/\.github\/actions\/breaks" failed/);
  });

  it("warns as the runner does of an input the action does not have and a deprecated input given, and of a required input not given, which GitHub does not enforce: the job passes", async () => {
    const machine = await userMachine(
      job(
        "      - uses: ./.github/actions/deploy\n        with:\n          old-name: web\n          servce: web\n",
      ),
      {
        ".github/actions/deploy/action.yml":
          'name: Deploy\ndescription: d\ninputs:\n  old-name:\n    description: the service\n    deprecationMessage: use service instead\n  target:\n    description: where to\n    required: true\n  region:\n    description: which region\n    required: true\n    default: eu\nruns:\n  using: composite\n  steps:\n    - run: echo "target [${{ inputs.target }}], region ${{ inputs.region }}, servce [${{ inputs.servce }}]"\n      shell: bash\n',
      },
    );
    const warnings = [
      "Unexpected input(s) 'servce', valid inputs are ['old-name', 'target', 'region']",
      "Input 'old-name' has been deprecated with message: use service instead",
      "Input 'target' is required but not given: GitHub's runner does not check it (https://github.com/actions/runner/issues/1070), so the action reads ''",
    ];
    const text = await rehearse(machine);
    expect(text.code, text.stdout + text.stderr).toBe(0);
    // The input it does not have is warned of and passed all the same (actions/runner
    // src/Runner.Worker/ActionRunner.cs @00aa7757, RunAsync).
    expect(printed(text.stdout)).toEqual([
      "target [], region eu, servce [web]",
      ...warnings.map((w) => `Warning: ${w}`),
    ]);
    expect(text.stdout).toContain("✔ job a would pass");
    const json = await rehearse(machine, ["--json"]);
    const [only] = (JSON.parse(json.stdout) as { jobs: { verdict: string; warnings: unknown }[] }).jobs;
    expect(only?.verdict).toBe("pass");
    expect(only?.warnings).toEqual(
      warnings.map((warning) => ({ step: "./.github/actions/deploy", warning })),
    );
  });

  it("runs a JavaScript action as the runner does: main and post with Node (never its pre), INPUT_*, GITHUB_OUTPUT and GITHUB_STATE", async () => {
    const machine = await userMachine(
      `on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - id: js
        uses: ./.github/actions/js
        with:
          who name: Grace
      - run: echo "output \${{ steps.js.outputs.greeting }}"
`,
      {
        ".github/actions/js/action.yml": `name: JS
description: A JavaScript action of the repository's own
inputs:
  who name:
    description: whom to greet
    default: Ada
outputs:
  greeting:
    description: what main wrote
runs:
  using: node24
  pre: pre.mjs
  main: main.mjs
  post: post.js
`,
        ".github/actions/js/pre.mjs": 'console.log("pre ran");\n',
        ".github/actions/js/main.mjs": `import { appendFileSync } from "node:fs";
import { basename } from "node:path";
console.log(\`hello \${process.env.INPUT_WHO_NAME} from \${basename(process.env.GITHUB_ACTION_PATH)}\`);
appendFileSync(process.env.GITHUB_OUTPUT, "greeting=hi\\n");
appendFileSync(process.env.GITHUB_STATE, "pid=42\\n");
`,
        ".github/actions/js/post.js": "console.log(`post, state ${process.env.STATE_pid}`);\n",
      },
    );
    const result = await rehearse(machine);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    // The post step runs after the job's steps ("Metadata syntax", runs.post). Its pre never runs:
    // the runner adds one only for an action it downloads (actions/runner
    // src/Runner.Worker/ActionManager.cs @0001dcd9, PrepareActionsRecursiveAsync).
    expect(printed(result.stdout)).toEqual(["hello Grace from js", "output hi", "post, state 42"]);
  });
});

describe("the job's status as the runner keeps it (actions/runner src/Runner.Worker/StepsRunner.cs @00a736d9)", () => {
  it("job.status is failure after a step failed; github.action_status is a composite's steps' so far; a failing post fails the job", async () => {
    const machine = await userMachine(
      job(
        `      - run: echo "before \${{ job.status }}"
      - run: exit 3
      - if: always()
        run: echo "after \${{ job.status }}"
      - if: always()
        uses: ./.github/actions/both
      - if: always()
        uses: ./.github/actions/cleanup
`,
      ),
      {
        ".github/actions/both/action.yml": `runs:
  using: composite
  steps:
    - run: echo "inside \${{ github.action_status }}"
      shell: bash
    - run: exit 1
      shell: bash
      continue-on-error: true
    - run: echo "still \${{ github.action_status }}, job \${{ job.status }}"
      shell: bash
`,
        ".github/actions/cleanup/action.yml": "runs:\n  using: node24\n  main: main.js\n  post: post.js\n",
        ".github/actions/cleanup/main.js": 'console.log("main");\n',
        ".github/actions/cleanup/post.js": 'console.log("post fails");\nprocess.exit(2);\n',
      },
    );
    const result = await rehearse(machine);
    expect(result.code).toBe(1);
    expect(printed(result.stdout)).toEqual([
      "before success",
      "after failure",
      "inside success",
      "still success, job failure",
      "main",
      "post fails",
    ]);
  });

  it("a job whose steps pass fails when its post step fails", async () => {
    const machine = await userMachine(job("      - uses: ./.github/actions/cleanup\n"), {
      ".github/actions/cleanup/action.yml": "runs:\n  using: node24\n  main: main.js\n  post: post.js\n",
      ".github/actions/cleanup/main.js": "",
      ".github/actions/cleanup/post.js": "process.exit(2);\n",
    });
    const result = await rehearse(machine);
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toMatch(/would fail/);
  });
});

describe("the Node a JavaScript action runs with (https://github.blog/changelog/2025-09-19-deprecation-of-node-20-on-github-actions-runners/)", () => {
  it("is the runner's Node 24 whatever its using: says, never the node on PATH; its file runs as the program's main module", async () => {
    const machine = await userMachine(
      job(
        `      - id: js\n        uses: ./.github/actions/old\n      - run: echo "ran with \${{ steps.js.outputs.node }}"\n`,
      ),
      {
        ".github/actions/old/action.yml":
          "name: Old\ndescription: A JavaScript action that still says node20\noutputs:\n  node:\n    description: the Node it ran with\nruns:\n  using: node20\n  pre: main.js\n  main: main.js\n",
        // CommonJS, as ncc bundles many: it runs only as the main module, as `node main.js` starts it.
        ".github/actions/old/main.js":
          'if (require.main === module) require("node:fs").appendFileSync(process.env.GITHUB_OUTPUT, `node=${process.versions.node.split(".")[0]}\\n`);\n',
      },
    );
    // A `node` first on PATH that the runner would never start for an action.
    const env = await onPath(machine, { node: "#!/bin/sh\necho 'the node on PATH'\nexit 3\n" });
    const result = await rehearse(machine, [], env);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    // The runner's words, once for the step.
    expect(printed(result.stdout)).toEqual([
      "Warning: Node.js 20 is deprecated. The following actions target Node.js 20 but are being forced to run on Node.js 24: ./.github/actions/old. For more information see: https://github.blog/changelog/2025-09-19-deprecation-of-node-20-on-github-actions-runners/",
      "ran with 24",
    ]);
  });

  // The runner reads `using:` in any case, and refuses one it does not know (actions/runner
  // src/Runner.Worker/ActionManifestManager.cs, ConvertRuns: string.Equals(usingToken.Value,
  // "node20", StringComparison.OrdinalIgnoreCase), else "'using: ...' is not supported").
  it("reads using: Node20 in any case, and fails a step whose using: the runner does not know", async () => {
    const machine = await userMachine(
      job(
        `      - id: js\n        uses: ./.github/actions/cased\n      - run: echo "ran with \${{ steps.js.outputs.node }}"\n      - uses: ./.github/actions/unknown\n`,
      ),
      {
        ".github/actions/cased/action.yml": "runs:\n  using: Node20\n  main: main.js\n",
        ".github/actions/cased/main.js":
          "require('node:fs').appendFileSync(process.env.GITHUB_OUTPUT, 'node=' + process.versions.node.split('.')[0] + '\\n');\n",
        ".github/actions/unknown/action.yml": "runs:\n  using: node99\n  main: main.js\n",
      },
    );
    const result = await rehearse(machine);
    expect(result.code).toBe(1);
    expect(printed(result.stdout)).toContain("ran with 24");
    expect(result.stdout).toContain(
      "'using: node99' is not supported, use 'docker', 'node12', 'node16', 'node20' or 'node24' instead.",
    );
  });
});

const REUSE = "https://docs.github.com/en/actions/how-tos/reuse-automations/reuse-workflows";

describe(`reusable workflows (${REUSE})`, () => {
  // docs/rehearse.md's example, as written there (packages/cli/test/fixtures/reusable).
  const fixture = (name: string) =>
    readFileSync(new URL(`fixtures/reusable/${name}`, import.meta.url), "utf8");

  it("rehearses one of this repository with with:, secrets: inherit and its outputs; lists another's, naming it", async () => {
    const page = readFileSync(new URL("../../../docs/rehearse.md", import.meta.url), "utf8");
    for (const name of ["caller.yml", "deploy.yml"]) expect(page).toContain(fixture(name));
    const machine = await userMachine(fixture("caller.yml"), {
      ".github/workflows/deploy.yml": fixture("deploy.yml"),
    });
    const result = await rehearse(machine, ["--secret", "DEPLOY_KEY=abcdef"]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    // A number input's default, typed; an expression default, evaluated in the run; the secret
    // passed on by inherit (its length, never its value).
    expect(printed(result.stdout)).toEqual([
      "ship main to staging, 2 replicas, key 6 characters",
      "smoke test of https://staging.example",
    ]);
    expect(result.stdout).toContain("job deploy / ship\n");
    expect(result.stdout).toContain("✔ job deploy / ship would pass");
    expect(result.stdout).toContain(
      "job shared: not rehearsed (it calls octo-org/ci/.github/workflows/lint.yml@v2, a reusable workflow of another repository, which the rehearsal does not fetch)",
    );
    expect(result.stdout).toMatch(/would pass as far as rehearsed \(1 step\(s\) or job\(s\) not rehearsed/);
    expect(result.stdout).not.toContain("abcdef");
  });

  it("refuses a call GitHub refuses: a required input not given, with GitHub's parser's words", async () => {
    const caller = fixture("caller.yml").replace("    with:\n      environment: staging\n", "");
    const machine = await userMachine(caller, { ".github/workflows/deploy.yml": fixture("deploy.yml") });
    const result = await rehearse(machine, ["--secret", "DEPLOY_KEY=abcdef"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /\(Line: 4, Col: 11\): Input environment is required, but not provided while calling\./,
    );
  });
});

// A setup action is another's action, not run: its scripts run on what this machine has. Said once
// a job, by the first script after it, with what that script finds ("Workflow syntax",
// jobs.<job_id>.steps[*].uses; actions/setup-node's input node-version).
describe("a run: step after actions/setup-* that was not run", () => {
  it("says once which tool and version its scripts find, and what setup asked for", async () => {
    const machine = await userMachine(
      job(
        `      - uses: actions/setup-node@v4\n        with:\n          node-version: 22\n${run("echo first")}${run("echo second")}`,
      ),
    );
    const env = await onPath(machine, { node: "#!/bin/sh\necho v22.99.0-stand-in\n" });
    const result = await rehearse(machine, [], env);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const notes = printed(result.stdout).filter((line) => line.startsWith("Note:"));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^Note: node v22\.99\.0-stand-in from PATH \(\S+\/bin\/node\); actions\/setup-node@v4 asked for 22, which the rehearsal does not install$/,
    );
  });
});
