import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ActionRepository } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { printed, rehearse, useActionRepositories, userMachine } from "./rehearse-machine.js";
import { runCli } from "./run-cli.js";

// Other repositories' actions (`uses: owner/repo[/path]@ref`), downloaded and run as GitHub's
// runner does (actions/runner src/Runner.Worker/ActionManager.cs @0001dcd9: PrepareActionsAsync
// downloads every action of the job while the job is set up, before its first step;
// DownloadRepositoryActionAsync unwraps the tarball's one folder; "Add 'pre' execution" for an
// action it downloads; Handlers/HandlerFactory.cs: node12 to node24 run on the runner's Node 24),
// served by GitHub's stand-in (its requests checked against GitHub's OpenAPI description), written
// as real repositories' actions are: tags, a branch, a SHA, a folder, a nested composite, pre and
// post, node16, node20 and node24, a Docker action.

const WORKFLOW_TOKEN = "ghs_rehearsal_workflow_token_0123";
const GREET_V1 = "1111111111111111111111111111111111111111";
const GREET_MAIN = "2222222222222222222222222222222222222222";
const KIT_V1 = "3333333333333333333333333333333333333333";
const OTHERS = "4444444444444444444444444444444444444444";

/** A JavaScript file of an action that says what it is, what it got, and saves and reads state. */
const script = (what: string) =>
  [
    'const fs = require("node:fs");',
    "const state = Object.keys(process.env).filter((k) => k.startsWith('STATE_')).sort().map((k) => k + '=' + process.env[k]).join(' ');",
    `console.log("${what} who=" + (process.env.INPUT_WHO ?? "") + " node=" + process.versions.node.split(".")[0] + " state=[" + state + "]");`,
    `fs.appendFileSync(process.env.GITHUB_STATE, "${what.split(" ")[0]}=saved\\n");`,
    `fs.appendFileSync(process.env.GITHUB_OUTPUT, "greeting=${what} " + (process.env.INPUT_WHO ?? "") + "\\n");`,
  ].join("\n");

const greet = (using: string, tag: string) => ({
  "action.yml": `name: greet\ninputs:\n  who:\n    required: true\n  token:\n    default: \${{ github.token }}\noutputs:\n  greeting:\n    description: what it said\nruns:\n  using: ${using}\n  pre: pre.js\n  main: main.js\n  post: post.js\n`,
  "pre.js": script(`pre ${tag}`),
  "main.js": script(`main ${tag}`),
  "post.js": script(`post ${tag}`),
  "sub/action.yml": "inputs:\n  who: {}\nruns:\n  using: node16\n  main: main.js\n",
  "sub/main.js": script("sub"),
});

const CONDITIONAL = "5555555555555555555555555555555555555555";

/**
 * An action whose pre, main and post each print their name: `runs` adds its pre-if or post-if, as
 * the setup-* actions and actions/cache declare `post-if: success()`. `failingPre`: its pre exits 1.
 */
const conditional = (name: string, runsIf: string, { failingPre = false } = {}) => ({
  [`${name}/action.yml`]: `runs:\n  using: node24\n  pre: pre.js\n  main: main.js\n  post: post.js\n${runsIf}`,
  [`${name}/pre.js`]: `console.log("pre ${name}");${failingPre ? " process.exit(1);" : ""}\n`,
  [`${name}/main.js`]: `console.log("main ${name}");\n`,
  [`${name}/post.js`]: `console.log("post ${name}");\n`,
});

const REPOSITORIES: ActionRepository[] = [
  {
    name: "octo/conditional",
    commits: {
      [CONDITIONAL]: {
        ...conditional("post-success", "  post-if: success()\n"),
        ...conditional("post-failure", "  post-if: failure()\n"),
        ...conditional("post-always", "  post-if: always()\n"),
        ...conditional("pre-success", "  pre-if: success()\n"),
        ...conditional("pre-failure", "  pre-if: failure()\n"),
        ...conditional("pre-always", "  pre-if: always()\n"),
        ...conditional("pre-failing", "", { failingPre: true }),
      },
    },
    tags: { v1: CONDITIONAL },
  },
  {
    name: "octo/greet",
    commits: { [GREET_V1]: greet("node20", "v1"), [GREET_MAIN]: greet("node24", "main") },
    tags: { v1: GREET_V1 },
    branches: { main: GREET_MAIN },
  },
  {
    name: "octo/kit",
    commits: {
      [KIT_V1]: {
        "action.yml": `inputs:\n  name: {}\noutputs:\n  said:\n    value: \${{ steps.inner.outputs.greeting }}\nruns:\n  using: composite\n  steps:\n    - run: echo "kit for $NAME"\n      shell: bash\n      env:\n        NAME: \${{ inputs.name }}\n    - id: inner\n      uses: octo/greet/sub@v1\n      with:\n        who: nested\n`,
        // A composite whose step uses an action with a pre and a post (octo/greet), one level down.
        "pre-kit/action.yml": `inputs:\n  name: {}\nruns:\n  using: composite\n  steps:\n    - uses: octo/kit/inner-kit@v1\n      with:\n        name: \${{ inputs.name }}\n`,
        "inner-kit/action.yml": `inputs:\n  name: {}\nruns:\n  using: composite\n  steps:\n    - name: greet inside\n      uses: octo/greet@v1\n      with:\n        who: \${{ inputs.name }} in \${{ github.action_path != '' && 'a composite' || 'nothing' }}\n`,
      },
    },
    tags: { v1: KIT_V1 },
  },
  {
    name: "octo/others",
    commits: {
      [OTHERS]: {
        "docker/action.yml": "runs:\n  using: docker\n  image: Dockerfile\n",
        "docker/Dockerfile": "FROM alpine\n",
        "script/action.yml": `inputs:\n  github-token:\n    required: true\n    default: \${{ github.token }}\nruns:\n  using: node24\n  main: main.js\n`,
        "script/main.js":
          'console.log("calls GitHub with a token of " + process.env["INPUT_GITHUB-TOKEN"].length + " characters");\n',
        "no-using/action.yml": "runs:\n  steps:\n    - run: echo never\n      shell: bash\n",
        "empty/README.md": "no action here\n",
      },
    },
    tags: { v2: OTHERS },
  },
  {
    name: "octo/hidden",
    private: true,
    commits: { [OTHERS]: { "action.yml": "runs:\n  using: node24\n  main: x.js\n" } },
    tags: { v1: OTHERS },
  },
];

const steps = (...lines: string[]) =>
  `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n${lines.join("")}`;

const actions = useActionRepositories(WORKFLOW_TOKEN, REPOSITORIES);

/** A rehearsal whose actions come from the stand-in, kept in `cache` (the user's cache folder). */
const rehearseWith = (
  machine: Awaited<ReturnType<typeof userMachine>>,
  args: string[] = [],
  env: Record<string, string> = {},
) => rehearse(machine, args, { ...actions.env(), ...env });

const PINNED = steps(
  "      - run: echo first step\n",
  "      - id: tag\n        uses: octo/greet@v1\n        with:\n          who: tag\n",
  "      - uses: octo/greet@main\n        with:\n          who: branch\n          whom: typo\n",
  `      - uses: octo/greet@${GREET_V1}\n        with:\n          who: sha\n`,
  "      - uses: octo/greet/sub@v1\n        with:\n          who: folder\n",
  "      - id: kit\n        uses: octo/kit@v1\n        with:\n          name: composite\n",
  `      - run: echo "outputs \${{ steps.tag.outputs.greeting }} / \${{ steps.kit.outputs.said }}"\n`,
);

describe("other repositories' actions", () => {
  // The runner reads runs.pre-if and runs.post-if as plain strings (default always()) when it loads
  // action.yml (actions/runner src/Runner.Worker/ActionManifestManager.cs @258d6c85 lines 418-428,
  // 458-460), and makes each the condition of the pre or post step it adds (ActionManager.cs
  // @258d6c85 lines 387 and 413), evaluated as that step is reached, with the job's status then.
  // The runner registers the pres of a composite's actions as the composite's own pre steps
  // (ActionManager.cs @258d6c85 lines 369-401, "Embedded Step", nested composites in turn) and runs
  // them at its place before the job's first step (Handlers/CompositeActionHandler.cs lines 41-44).
  it("runs the pre of an action used inside another repository's composite actions before the job's first step, with the composite's inputs; its main and post get its state", async () => {
    const machine = await userMachine(
      steps(
        "      - run: echo first step\n",
        "      - uses: octo/kit/pre-kit@v1\n        with:\n          name: deep\n",
      ),
    );
    // A cache folder of its own: the other tests here see these actions downloaded as they expect.
    const result = await rehearseWith(machine, [], {
      XDG_CACHE_HOME: await mkdtemp(join(tmpdir(), "cwp-cache-")),
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(printed(result.stdout).filter((line) => /^(pre|main|post) v1|^first step/.test(line))).toEqual([
      "pre v1 who=deep in a composite node=24 state=[]",
      "first step",
      "main v1 who=deep in a composite node=24 state=[STATE_pre=saved]",
      "post v1 who=deep in a composite node=24 state=[STATE_main=saved STATE_pre=saved]",
    ]);
    expect(result.stdout).toContain(
      `▶ Pre octo/kit/pre-kit@v1 › octo/kit/inner-kit@v1 › greet inside (pre of octo/greet@v1, another repository's action at ${GREET_V1.slice(0, 12)}, --run-shell)`,
    );
  });

  it("runs a pre or post where its pre-if or post-if holds with the job's status then: success(), failure(), always(), after a passing and a failing step", async () => {
    const uses = (...names: string[]) =>
      names.map((n) => `      - uses: octo/conditional/${n}@v1\n`).join("");
    const job = (name: string, first: string, last: string) =>
      `  ${name}:\n    runs-on: ubuntu-latest\n    steps:\n${first}${uses("pre-success", "pre-failure", "pre-always", "post-success", "post-failure", "post-always")}${last}`;
    const machine = await userMachine(
      `on: push\njobs:\n${job("passing", "", "      - run: echo passed\n")}${job("failing", uses("pre-failing"), "")}${job("failed", "", "      - run: exit 1\n")}`,
    );
    const result = await rehearseWith(machine);
    expect(result.stderr).toBe("");
    /** What the actions printed in one job's part of the rehearsal. */
    const ranIn = (job: string) => {
      const part = result.stdout.slice(result.stdout.indexOf(`job ${job}`));
      const next = part.indexOf("\njob ", 1);
      return printed(next === -1 ? part : part.slice(0, next)).filter((line) =>
        /^(pre|main|post) /.test(line),
      );
    };
    // Each pre and post named as the post of its action, at its commit, not as a `run:` script.
    expect(result.stdout).toContain(
      `▶ Post octo/conditional/pre-failure@v1 (post of octo/conditional/pre-failure@v1, another repository's action at ${CONDITIONAL.slice(0, 12)}, --run-shell)`,
    );
    expect(result.stdout).toContain(
      `▶ Pre octo/conditional/pre-always@v1 (pre of octo/conditional/pre-always@v1, another repository's action at ${CONDITIONAL.slice(0, 12)}, --run-shell)`,
    );
    expect(result.stdout).not.toMatch(/▶ (Pre|Post) .*\(run: shell/);
    const mains = ["pre-success", "pre-failure", "pre-always", "post-success", "post-failure", "post-always"];
    // Where no pre fails: the pres whose pre-if holds (failure()'s does not), then every main.
    const presAndMains = [
      "pre pre-success",
      "pre pre-always",
      "pre post-success",
      "pre post-failure",
      "pre post-always",
      ...mains.map((name) => `main ${name}`),
    ];
    // Passing: the pres whose pre-if holds (failure()'s does not), every main, then the posts last
    // registered first (pre-failure's by its main, the rest by their pres), failure()'s skipped.
    expect(ranIn("passing")).toEqual([
      ...presAndMains,
      "post pre-failure",
      "post post-always",
      "post post-success",
      "post pre-always",
      "post pre-success",
    ]);
    // A pre that fails: the pres after it run where their pre-if holds after a failure (success()'s
    // does not), no main runs, and the posts their pres registered run where post-if holds.
    expect(ranIn("failing")).toEqual([
      "pre pre-failing",
      "pre pre-failure",
      "pre pre-always",
      "pre post-success",
      "pre post-failure",
      "pre post-always",
      "post post-always",
      "post post-failure",
      "post pre-always",
      "post pre-failure",
      "post pre-failing",
    ]);
    // A step that fails: failure() and always() posts run, success()'s does not.
    expect(ranIn("failed")).toEqual([
      ...presAndMains,
      "post pre-failure",
      "post post-always",
      "post post-failure",
      "post pre-always",
      "post pre-success",
    ]);
    expect(result.code).toBe(1);
  });

  it("runs JavaScript and composite actions at their pinned ref (tag, branch, full SHA, folder) with the runner's pre, main and post order", async () => {
    const machine = await userMachine(PINNED);
    const result = await rehearseWith(machine);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const lines = printed(result.stdout);
    // Downloaded while the job is set up, before its first step, each ref resolved to its commit.
    const first = lines.indexOf("first step");
    expect(lines.slice(0, first)).toEqual(
      expect.arrayContaining([
        `Download action repository 'octo/greet@v1' (SHA:${GREET_V1})`,
        `Download action repository 'octo/greet@main' (SHA:${GREET_MAIN})`,
        `Download action repository 'octo/kit@v1' (SHA:${KIT_V1})`,
      ]),
    );
    // Pre at the job's start, in the order of the steps; posts after the steps, last first, each
    // with what its pre and main saved; every Node version on the runner's Node 24.
    const ran = lines.filter((line) => /^(pre|main|post|sub) /.test(line));
    expect(ran).toEqual([
      "pre v1 who=tag node=24 state=[]",
      "pre main who=branch node=24 state=[]",
      "pre v1 who=sha node=24 state=[]",
      "main v1 who=tag node=24 state=[STATE_pre=saved]",
      "main main who=branch node=24 state=[STATE_pre=saved]",
      "main v1 who=sha node=24 state=[STATE_pre=saved]",
      "sub who=folder node=24 state=[]",
      "sub who=nested node=24 state=[]",
      "post v1 who=sha node=24 state=[STATE_main=saved STATE_pre=saved]",
      "post main who=branch node=24 state=[STATE_main=saved STATE_pre=saved]",
      "post v1 who=tag node=24 state=[STATE_main=saved STATE_pre=saved]",
    ]);
    expect(lines.indexOf("pre v1 who=tag node=24 state=[]")).toBeLessThan(first);
    expect(lines).toContain("kit for composite");
    expect(lines).toContain("outputs main v1 tag / sub nested");
    // The runner's warnings: an input the action does not have, and Node versions forced onto 24.
    expect(lines).toContain("Warning: Unexpected input(s) 'whom', valid inputs are ['who', 'token']");
    expect(lines).toContain(
      "Warning: Node.js 16 is deprecated. The following actions target Node.js 16 but are being forced to run on Node.js 24: octo/greet/sub@v1. For more information see: https://github.blog/changelog/2025-09-19-deprecation-of-node-20-on-github-actions-runners/",
    );
    expect(result.stdout).toContain(
      `▶ octo/greet@v1 (octo/greet@v1, another repository's action at ${GREET_V1.slice(0, 12)})`,
    );
    expect(result.stdout).toContain("✔ job a would pass");
    expect(result.stdout).not.toContain("as far as rehearsed");
    expect(actions.github().violations).toEqual([]);
  });

  it("downloads nothing it already has: a full SHA is not asked for again, a tag is resolved again; without GitHub a kept tag is used, and said", async () => {
    const machine = await userMachine(PINNED);
    const before = actions.github().calls.length;
    const again = await rehearseWith(machine);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const calls = actions.github().calls.slice(before);
    expect(calls.filter((call) => call.includes("/tarball/") || call.includes("/codeload/"))).toEqual([]);
    expect(calls).toContain("GET /repos/octo/greet/commits/v1");
    expect(calls).not.toContain(`GET /repos/octo/greet/commits/${GREET_V1}`);
    expect(printed(again.stdout)).toContain(
      `Action repository 'octo/greet@v1' (SHA:${GREET_V1}) is kept from an earlier rehearsal`,
    );
    // GitHub out of reach: what is kept is used, and the rehearsal says it may have moved.
    const offline = await rehearseWith(machine, [], { GITHUB_API_URL: "http://127.0.0.1:2" });
    expect(offline.code, offline.stdout + offline.stderr).toBe(0);
    expect(printed(offline.stdout)).toContain(
      `GitHub (http://127.0.0.1:2) could not be reached: ECONNREFUSED: using octo/greet@v1 at ${GREET_V1}, as an earlier rehearsal downloaded it (it may have moved since)`,
    );
    expect(offline.stdout).toContain("✔ job a would pass");
  });

  it("fails a job whose action GitHub refuses before any of its steps, in the runner's words", async () => {
    const job = (name: string, uses: string) =>
      `  ${name}:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${name} started"\n      - uses: ${uses}\n`;
    const machine = await userMachine(
      `on: push\njobs:\n${[
        job("short", `octo/greet@${GREET_V1.slice(0, 7)}`),
        job("missing-repo", "octo/nowhere@v1"),
        job("missing-ref", "octo/greet@v9"),
        job("no-action", "octo/others/empty@v2"),
        job("no-using", "octo/others/no-using@v2"),
        job("private", "octo/hidden@v1"),
      ].join("")}`,
    );
    const result = await rehearseWith(machine);
    expect(result.code).toBe(1);
    // None of their steps ran.
    expect(printed(result.stdout).filter((line) => line.endsWith("started"))).toEqual([]);
    for (const finding of [
      `job short: Unable to resolve action \`octo/greet@${GREET_V1.slice(0, 7)}\`, the provided ref \`${GREET_V1.slice(0, 7)}\` is the shortened version of a commit SHA, which is not supported. Please use the full commit SHA \`${GREET_V1}\` instead.`,
      "job missing-repo: Unable to resolve action `octo/nowhere@v1`, repository not found",
      "job missing-ref: Unable to resolve action `octo/greet@v9`, unable to find version `v9`",
      "job no-action: Can't find 'action.yml', 'action.yaml' or 'Dockerfile' for action 'octo/others/empty@v2'.",
      // GitHub's parser names the file and where in it, then the runner's words.
      "job no-using: octo/others/no-using@v2/action.yml (Line: 2, Col: 3): Missing 'using' value. 'using' requires 'composite', 'docker', 'node12', 'node16', 'node20' or 'node24'.",
      // A private repository, without a token that reads it, is one GitHub does not show.
      "job private: Unable to resolve action `octo/hidden@v1`, repository not found",
    ])
      expect(result.stdout).toContain(`finding: ${finding}`);
    expect(actions.github().violations).toEqual([]);
  });

  it("names a Docker action and a step that needs GitHub's token, never failing for them; runs the latter with --secret GITHUB_TOKEN, saying its calls go to GitHub", async () => {
    const machine = await userMachine(
      steps("      - uses: octo/others/docker@v2\n", "      - uses: octo/others/script@v2\n"),
    );
    const without = await rehearseWith(machine);
    expect(without.code, without.stdout).toBe(0);
    expect(without.stdout).toContain(
      "not rehearsed: a Docker action, which needs Docker: the rehearsal does not run it",
    );
    expect(without.stdout).toContain(
      "not rehearsed: it calls GitHub's API with the workflow token (its input 'github-token' defaults to github.token), which the rehearsal has only from --secret GITHUB_TOKEN",
    );
    expect(without.stdout).toContain("would pass as far as rehearsed");
    const withToken = await rehearseWith(machine, ["--secret", `GITHUB_TOKEN=${WORKFLOW_TOKEN}`]);
    expect(withToken.stdout).toContain(
      "note: its calls go to GitHub, with the token given as --secret GITHUB_TOKEN (its input 'github-token')",
    );
    expect(printed(withToken.stdout)).toContain(
      `calls GitHub with a token of ${WORKFLOW_TOKEN.length} characters`,
    );
    expect(withToken.stdout + withToken.stderr).not.toContain(WORKFLOW_TOKEN);
  });

  it("without --run-shell downloads and reads the action, checks its inputs, and lists it as not run", async () => {
    const machine = await userMachine(
      steps("      - uses: octo/greet@v1\n        with:\n          whom: typo\n"),
    );
    const result = await runCli(["rehearse", machine.workflowFile], {
      cwd: machine.clone,
      env: { NO_COLOR: "1", HOME: machine.home, ...actions.env() },
    });
    expect(result.stdout).toContain("Warning: Unexpected input(s) 'whom', valid inputs are ['who', 'token']");
    expect(result.stdout).toContain(
      "not rehearsed: a JavaScript action (node20), which runs only with --run-shell",
    );
  });
});
