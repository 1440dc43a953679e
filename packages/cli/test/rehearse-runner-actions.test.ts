import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { job, onPath, printed, rehearse, userMachine } from "./rehearse-machine.js";

// `cwp rehearse --run-shell` runs a job's actions as GitHub's runner runs them on Linux: local
// actions and the Node a JavaScript action gets (the job's status, reusable workflows, a setup
// action not run: rehearse-runner-jobs.test.ts; run: steps: rehearse-runner.test.ts). Each case
// states GitHub's documented outcome and cites its page or the runner's source; a job that fails
// on GitHub fails here.

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
