import type { ActionRepository } from "@cwp/action-testing";
import { rehearse, useActionRepositories, type userMachine } from "./rehearse-machine.js";

// What the tests of other repositories' actions share (rehearse-other-actions.test.ts,
// rehearse-action-pre-post.test.ts): the actions (`uses: owner/repo[/path]@ref`), downloaded and
// run as GitHub's runner does (actions/runner src/Runner.Worker/ActionManager.cs @0001dcd9: PrepareActionsAsync
// downloads every action of the job while the job is set up, before its first step;
// DownloadRepositoryActionAsync unwraps the tarball's one folder; "Add 'pre' execution" for an
// action it downloads; Handlers/HandlerFactory.cs: node12 to node24 run on the runner's Node 24),
// served by GitHub's stand-in (its requests checked against GitHub's OpenAPI description), written
// as real repositories' actions are: tags, a branch, a SHA, a folder, a nested composite, pre and
// post, node16, node20 and node24, a Docker action.

export const WORKFLOW_TOKEN = "ghs_rehearsal_workflow_token_0123";
export const GREET_V1 = "1111111111111111111111111111111111111111";
export const GREET_MAIN = "2222222222222222222222222222222222222222";
export const KIT_V1 = "3333333333333333333333333333333333333333";
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

export const CONDITIONAL = "5555555555555555555555555555555555555555";

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

export const steps = (...lines: string[]) =>
  `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n${lines.join("")}`;

export const PINNED = steps(
  "      - run: echo first step\n",
  "      - id: tag\n        uses: octo/greet@v1\n        with:\n          who: tag\n",
  "      - uses: octo/greet@main\n        with:\n          who: branch\n          whom: typo\n",
  `      - uses: octo/greet@${GREET_V1}\n        with:\n          who: sha\n`,
  "      - uses: octo/greet/sub@v1\n        with:\n          who: folder\n",
  "      - id: kit\n        uses: octo/kit@v1\n        with:\n          name: composite\n",
  `      - run: echo "outputs \${{ steps.tag.outputs.greeting }} / \${{ steps.kit.outputs.said }}"\n`,
);

/**
 * GitHub's stand-in serving REPOSITORIES to the calling test file (its own, started before its tests),
 * and a rehearsal whose actions come from it, kept in the user's cache folder. Call once, at the
 * file's top.
 */
export function useOtherActions() {
  const actions = useActionRepositories(WORKFLOW_TOKEN, REPOSITORIES);
  const rehearseWith = (
    machine: Awaited<ReturnType<typeof userMachine>>,
    args: string[] = [],
    env: Record<string, string> = {},
  ) => rehearse(machine, args, { ...actions.env(), ...env });
  return { actions, rehearseWith };
}
