import { describe, expect, it } from "vitest";
import {
  type JobRecord,
  jobOrder,
  type OurStep,
  type RehearsalOptions,
  readWorkflow,
  rehearseJob,
  runName,
  type StepResult,
} from "../src/index.js";

// Whole workflows rehearsed, each verdict checked against GitHub's documented semantics (the
// page cited by each case). Our actions' steps are run by a stand-in that records what they got.

const SYNTAX = "https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax";
const CONTEXTS = "https://docs.github.com/en/actions/reference/workflows-and-actions/contexts";
const EXPRESSIONS = "https://docs.github.com/en/actions/reference/workflows-and-actions/expressions";

const SHAPES = {
  "trigger-build": {
    inputs: { "service-id": {}, branch: {}, "api-token": {} },
    outputs: ["image", "status"],
  },
  "run-template": { inputs: { "template-id": {}, arguments: {} }, outputs: ["run-id", "status"] },
};

interface Ran {
  step: OurStep;
}

async function rehearse(
  text: string,
  options: Partial<RehearsalOptions<StepResult>> & {
    failing?: string[];
    outputs?: Record<string, string>;
  } = {},
) {
  const workflow = await readWorkflow(text, "w.yml");
  const ran: Ran[] = [];
  const all: RehearsalOptions<StepResult> = {
    workflow,
    event: { name: "push", payload: {}, sha: "a".repeat(40), ref: "refs/heads/main" },
    repository: "acme/shop",
    workspace: "/nonexistent",
    actions: SHAPES,
    runStep: async (step) => {
      ran.push({ step });
      const fails = options.failing?.includes(step.name) ?? false;
      return {
        code: fails ? 1 : 0,
        outputs: { image: "registry.example/web:1", status: "SUCCESS", ...options.outputs },
      };
    },
    ...options,
  };
  const done = new Map<string, JobRecord[]>();
  for (const id of jobOrder(workflow)) done.set(id, await rehearseJob(all, id, done));
  return { jobs: done, ran, name: runName(all) };
}

const build = (name: string, extra = "") =>
  `      - name: ${name}\n        uses: acme/cwp/actions/trigger-build@v1\n        with:\n          service-id: web\n${extra}`;

describe(`if: and the status functions (${EXPRESSIONS}#status-check-functions)`, () => {
  it("a workflow_dispatch boolean input false is false: the step is skipped", async () => {
    const { ran } = await rehearse(
      `on:\n  workflow_dispatch:\n    inputs:\n      deploy: { type: boolean, default: true }\njobs:\n  a:\n    runs-on: x\n    steps:\n      - if: inputs.deploy\n${build("Deploy").replace("      - name", "        name")}`,
      {
        event: { name: "workflow_dispatch", payload: {}, sha: "a".repeat(40), ref: "refs/heads/main" },
        inputs: { deploy: "false" },
      },
    );
    expect(ran).toEqual([]);
  });

  it("a number input is a number, its default too (the parser patched: patches/@actions__workflow-parser@0.3.61.md)", async () => {
    const { ran } = await rehearse(
      `on:\n  workflow_dispatch:\n    inputs:\n      replicas: { type: number, default: 3 }\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: acme/cwp/actions/run-template@v1\n        with:\n          template-id: t\n          arguments: \${{ toJSON(inputs.replicas) }}\n`,
      { event: { name: "workflow_dispatch", payload: {}, sha: "a".repeat(40), ref: "refs/heads/main" } },
    );
    expect(ran[0]?.step.inputs.arguments).toBe("3");
  });

  it("a need that failed skips the jobs after it, but always() and failure() run; !cancelled() too", async () => {
    const { jobs, ran } = await rehearse(
      `on: push\njobs:\n  build:\n    runs-on: x\n    steps:\n${build("Build")}  deploy:\n    needs: build\n    runs-on: x\n    steps:\n${build("Deploy")}  report:\n    needs: deploy\n    if: always()\n    runs-on: x\n    steps:\n${build("Report")}  alert:\n    needs: build\n    if: failure()\n    runs-on: x\n    steps:\n${build("Alert")}  tidy:\n    needs: build\n    if: \${{ !cancelled() }}\n    runs-on: x\n    steps:\n${build("Tidy")}`,
      { failing: ["Build"] },
    );
    expect(jobs.get("build")?.[0]?.result).toBe("failure");
    expect(jobs.get("deploy")?.[0]?.ran).toBe(false);
    expect(jobs.get("deploy")?.[0]?.result).toBe("skipped");
    // `report` needs a skipped job: always() runs it all the same.
    expect(ran.map((r) => r.step.name)).toEqual(["Build", "Report", "Alert", "Tidy"]);
  });

  it(`a failure applies down the whole chain of needs, past a job that ran on always() (${SYNTAX}#jobsjob_idneeds)`, async () => {
    // "If a run contains a series of jobs that need each other, a failure or skip applies to all
    // jobs in the dependency chain from the point of failure or skip onwards": \`publish\` needs only
    // \`report\`, which ran on always() and succeeded, and is skipped all the same; failure() sees
    // the ancestor's failure.
    const { jobs, ran } = await rehearse(
      `on: push\njobs:\n  build:\n    runs-on: x\n    steps:\n${build("Build")}  report:\n    needs: build\n    if: always()\n    runs-on: x\n    steps:\n${build("Report")}  publish:\n    needs: report\n    runs-on: x\n    steps:\n${build("Publish")}  rollback:\n    needs: report\n    if: failure()\n    runs-on: x\n    steps:\n${build("Rollback")}`,
      { failing: ["Build"] },
    );
    expect(jobs.get("report")?.[0]?.result).toBe("success");
    expect(jobs.get("publish")?.[0]).toMatchObject({ ran: false, result: "skipped" });
    expect(ran.map((r) => r.step.name)).toEqual(["Build", "Report", "Rollback"]);
  });

  it(`continue-on-error: outcome failure, conclusion success, the job goes on (${SYNTAX}#jobsjob_idstepscontinue-on-error)`, async () => {
    const { jobs, ran } = await rehearse(
      `on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n${build("Flaky", "        continue-on-error: true\n        id: flaky\n")}      - name: After\n        if: steps.flaky.outcome == 'failure' && steps.flaky.conclusion == 'success'\n        uses: acme/cwp/actions/trigger-build@v1\n`,
      { failing: ["Flaky"] },
    );
    expect(ran.map((r) => r.step.name)).toEqual(["Flaky", "After"]);
    expect(jobs.get("a")?.[0]?.success).toBe(true);
  });
});

describe(`env, layered (${CONTEXTS}#env-context)`, () => {
  it("the step's own env wins over the job's and the workflow's, in env:, with: and if: alike", async () => {
    const { ran } = await rehearse(
      `on: push\nenv:\n  WHERE: workflow\n  KEEP: kept\njobs:\n  a:\n    runs-on: x\n    env:\n      WHERE: job\n    steps:\n      - name: Build\n        if: env.WHERE == 'step'\n        uses: acme/cwp/actions/trigger-build@v1\n        env:\n          WHERE: step\n        with:\n          branch: \${{ env.WHERE }}-\${{ env.KEEP }}\n`,
    );
    expect(ran).toHaveLength(1);
    expect(ran[0]?.step.env).toMatchObject({ WHERE: "step", KEEP: "kept" });
    expect(ran[0]?.step.inputs.branch).toBe("step-kept");
  });
});

describe("values as a runner hands them to a step", () => {
  it("a block scalar (|) with expressions is its value, lines unindented, each ${{ }} replaced", async () => {
    const { ran } = await rehearse(
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: acme/cwp/actions/run-template@v1\n        with:\n          template-id: t\n          arguments: |\n            {"ref": "${{ github.ref_name }}", "x": "${{ \'}}\' }}"}\n            second: line\n',
    );
    expect(ran[0]?.step.inputs.arguments).toBe('{"ref": "main", "x": "}}"}\nsecond: line\n');
  });
});

describe(`jobs and their outputs (${SYNTAX}#jobsjob_idoutputs)`, () => {
  it("needs.<job>.outputs carries our steps' outputs; needs.<job>.result holds", async () => {
    const { ran } = await rehearse(
      `on: push\njobs:\n  build:\n    runs-on: x\n    outputs:\n      image: \${{ steps.b.outputs.image }}\n    steps:\n${build("Build", "        id: b\n")}  deploy:\n    needs: build\n    if: needs.build.result == 'success'\n    runs-on: x\n    steps:\n      - uses: acme/cwp/actions/run-template@v1\n        with:\n          template-id: deploy\n          arguments: image=\${{ needs.build.outputs.image }}\n`,
    );
    expect(ran.map((r) => r.step.inputs.arguments)).toEqual([undefined, "image=registry.example/web:1"]);
  });

  it(`a matrix job runs once per combination, with include, and a matrix from fromJSON (${SYNTAX}#jobsjob_idstrategymatrix)`, async () => {
    const { jobs, ran } = await rehearse(
      `on: push\njobs:\n  a:\n    runs-on: x\n    strategy:\n      matrix:\n        service: [web, api]\n        include:\n          - service: web\n            branch: main\n    name: build \${{ matrix.service }}\n    steps:\n      - uses: acme/cwp/actions/trigger-build@v1\n        with:\n          service-id: \${{ matrix.service }}\n          branch: \${{ matrix.branch || 'dev' }}\n  b:\n    runs-on: x\n    strategy:\n      matrix: \${{ fromJSON(vars.SITES) }}\n    steps:\n      - uses: acme/cwp/actions/trigger-build@v1\n        with:\n          service-id: \${{ matrix.site }}\n`,
      { vars: { SITES: '{"site": ["eu", "us"]}' } },
    );
    expect(ran.map((r) => [r.step.inputs["service-id"], r.step.inputs.branch])).toEqual([
      ["web", "main"],
      ["api", "dev"],
      ["eu", undefined],
      ["us", undefined],
    ]);
    expect(jobs.get("a")?.map((j) => j.job)).toEqual(["build web", "build api"]);
    expect(jobs.get("b")?.map((j) => j.job)).toEqual(["b (eu)", "b (us)"]);
  });

  it(`a matrix written as a block scalar holding one expression, and \${{ insert }} laying a mapping in (${SYNTAX}#jobsjob_idstrategymatrix)`, async () => {
    const { jobs } = await rehearse(
      `on: push\njobs:\n  a:\n    runs-on: x\n    strategy:\n      matrix: |\n        \${{ fromJSON(vars.SITES) }}\n    steps:\n      - run: echo\n  b:\n    runs-on: x\n    strategy:\n      matrix:\n        os: [linux]\n        \${{ insert }}: \${{ fromJSON('{"node":[22,24]}') }}\n    steps:\n      - run: echo\n`,
      { vars: { SITES: '{"site": ["eu", "us"]}' } },
    );
    expect(jobs.get("a")?.map((j) => j.job)).toEqual(["a (eu)", "a (us)"]);
    expect(jobs.get("b")?.map((j) => j.job)).toEqual(["b (linux, 22)", "b (linux, 24)"]);
  });

  it("a matrix list item that is an expression yielding a list is spliced in; a list written as an item stays one value (actions/runner, src/Sdk/DTObjectTemplating/ObjectTemplating/TemplateUnraveler.cs, SequenceItemBasicExpression)", async () => {
    const { jobs } = await rehearse(
      `on: push\njobs:\n  a:\n    runs-on: x\n    strategy:\n      matrix:\n        node: [18, "\${{ fromJSON(vars.NEWER) }}", "\${{ vars.ONE }}"]\n        include:\n          - node: 18\n            lts: old\n          - \${{ fromJSON('[{"node":26,"lts":"next"}]') }}\n    steps:\n      - run: echo\n  b:\n    runs-on: x\n    strategy:\n      matrix:\n        pair: [[1, 2], "\${{ fromJSON('[[3, 4]]') }}"]\n    steps:\n      - run: echo\n`,
      { vars: { NEWER: "[20, 22]", ONE: "24" } },
    );
    expect(jobs.get("a")?.map((j) => j.job)).toEqual([
      "a (18, old)",
      "a (20)",
      "a (22)",
      "a (24)",
      "a (26, next)",
    ]);
    expect(jobs.get("b")?.map((j) => j.matrix)).toEqual([{ pair: [1, 2] }, { pair: [3, 4] }]);
  });

  it("a matrix key written as an expression is its value as text (actions/runner, src/Sdk/DTObjectTemplating/ObjectTemplating/TemplateUnraveler.cs, mapping keys)", async () => {
    const { jobs } = await rehearse(
      `on: push\njobs:\n  a:\n    runs-on: x\n    strategy:\n      matrix:\n        \${{ vars.AXIS }}: [22, 24]\n    steps:\n      - run: echo\n`,
      { vars: { AXIS: "node" } },
    );
    expect(jobs.get("a")?.map((j) => j.matrix)).toEqual([{ node: 22 }, { node: 24 }]);
  });

  it("an output only a run: step sets is unknown where it is read, never passed on as ''", async () => {
    const { jobs, ran } = await rehearse(
      `on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - id: v\n        run: echo "version=1.2.3" >> "$GITHUB_OUTPUT"\n      - name: Build\n        uses: acme/cwp/actions/trigger-build@v1\n        with:\n          branch: release-\${{ steps.v.outputs.version }}\n`,
    );
    expect(ran).toEqual([]);
    const step = jobs.get("a")?.[0]?.steps[1];
    expect(step?.kind).toBe("unknown");
    expect(step?.reason).toMatch(
      /set by the run: step "Run echo "version=1.2.3" >> "\$GITHUB_OUTPUT"", which the rehearsal does not run/,
    );
    expect(jobs.get("a")?.[0]?.success).toBe(true);
  });
});

describe("a value only a step not run sets, read through needs (issue: never a text such as Object)", () => {
  // A job output set by a run: step not run, read by a later job: "unknown" wherever it is read.
  const version = `on: push\njobs:\n  version:\n    runs-on: x\n    outputs:\n      v: \${{ steps.v.outputs.v }}\n    steps:\n      - id: v\n        run: echo "v=1" >> "$GITHUB_OUTPUT"\n  build:\n    needs: version\n    runs-on: x\n`;
  const build = (rest: string) => rehearse(`${version}${rest}`);
  const cases: Record<string, string> = {
    "inside a longer string": `    steps:\n      - uses: acme/cwp/actions/trigger-build@v1\n        with:\n          branch: APP_VERSION=\${{ needs.version.outputs.v }}\n`,
    "a whole input": `    steps:\n      - uses: acme/cwp/actions/trigger-build@v1\n        with:\n          branch: \${{ needs.version.outputs.v }}\n`,
    "an env: value": `    steps:\n      - uses: acme/cwp/actions/trigger-build@v1\n        env:\n          V: v\${{ needs.version.outputs.v }}\n`,
    "an if:": `    steps:\n      - if: needs.version.outputs.v == '1'\n        uses: acme/cwp/actions/trigger-build@v1\n`,
    "toJSON of the outputs": `    steps:\n      - uses: acme/cwp/actions/trigger-build@v1\n        with:\n          branch: \${{ toJSON(needs.version.outputs) }}\n`,
  };
  for (const [where, steps] of Object.entries(cases))
    it(`in ${where}: the step is not started, and says where the value comes from`, async () => {
      const { jobs, ran } = await build(steps);
      expect(ran).toEqual([]);
      const step = jobs.get("build")?.[0]?.steps[0];
      expect(step?.kind).toBe("unknown");
      expect(step?.reason).toMatch(/^unknown \(set by the run: step "Run echo "v=1" >> "\$GITHUB_OUTPUT""/);
    });

  it("in a job's if: or a matrix: the job is not rehearsed, saying why", async () => {
    for (const rest of [
      `    if: needs.version.outputs.v == '1'\n    steps:\n      - run: echo\n`,
      `    strategy:\n      matrix:\n        v: \${{ fromJSON(needs.version.outputs.v) }}\n    steps:\n      - run: echo\n`,
    ]) {
      const { jobs } = await build(rest);
      const record = jobs.get("build")?.[0];
      expect(record?.notRehearsed, rest).toBe(true);
      expect(record?.success).toBe(true);
      expect(record?.reason).toMatch(/unknown \(set by the run: step/);
    }
  });
});

// "Controlling permissions for GITHUB_TOKEN": a job's permissions:, else the workflow's; where one
// is set, every scope it does not name is none.
// https://docs.github.com/en/actions/writing-workflows/choosing-what-your-workflow-does/controlling-permissions-for-github_token
describe("the workflow token's permissions our steps need", () => {
  const SHAPES_WITH_ENV = {
    ...SHAPES,
    "trigger-build": {
      ...SHAPES["trigger-build"],
      inputs: { ...SHAPES["trigger-build"].inputs, environment: {}, "github-token": {} },
    },
  };
  const deploy = (permissions: string, withMore = "") =>
    rehearse(
      `on: push\n${permissions}jobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: acme/cwp/actions/trigger-build@v1\n        with:\n          environment: production\n${withMore}`,
      { actions: SHAPES_WITH_ENV },
    );
  it("a deployment without deployments: write is a finding naming where the permissions come from", async () => {
    const none = await deploy("permissions:\n  contents: read\n");
    expect(none.jobs.get("a")?.[0]?.findings).toEqual([
      'job a, step "acme/cwp/actions/trigger-build@v1": environment: records a GitHub deployment, which needs permissions deployments: write; the token has deployments: none (the workflow\'s permissions:)',
    ]);
    const assumed = await deploy("");
    expect(assumed.jobs.get("a")?.[0]?.findings[0]).toMatch(
      /deployments: none \(no permissions: in the job or the workflow, so the repository's default, which the rehearsal takes as read-only/,
    );
  });
  it("none with deployments: write or write-all, or with a github-token of the step's own", async () => {
    for (const [permissions, more] of [
      ["permissions:\n  deployments: write\n", ""],
      ["permissions: write-all\n", ""],
      ["", `          github-token: \${{ secrets.DEPLOY_PAT }}\n`],
    ])
      expect((await deploy(permissions as string, more)).jobs.get("a")?.[0]?.findings, permissions).toEqual(
        [],
      );
  });
});

describe("names and findings", () => {
  it(`run-name and every name: are shown evaluated (${SYNTAX}#run-name)`, async () => {
    const { name, jobs } = await rehearse(
      `name: Deploy\nrun-name: Deploy \${{ github.ref_name }} by \${{ github.actor }}\non: push\njobs:\n  a:\n    name: Build \${{ github.ref_name }}\n    runs-on: x\n    steps:\n      - name: Step of \${{ github.repository }}\n        run: echo\n`,
    );
    expect(name).toBe("Deploy main by rehearsal");
    expect(jobs.get("a")?.[0]?.job).toBe("Build main");
    expect(jobs.get("a")?.[0]?.steps[0]?.name).toBe("Step of acme/shop");
  });

  it("an input our action does not have is named as GitHub names it: the unexpected input and the valid ones", async () => {
    const { jobs } = await rehearse(
      `on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: acme/cwp/actions/run-template@v1\n        with:\n          templat-id: deploy\n`,
    );
    expect(jobs.get("a")?.[0]?.findings).toEqual([
      `job a, step "acme/cwp/actions/run-template@v1": Unexpected input(s) 'templat-id', valid inputs are ['template-id', 'arguments']; did you mean 'template-id' for 'templat-id'?`,
    ]);
    expect(jobs.get("a")?.[0]?.success).toBe(false);
  });
});

// A job's timeout-minutes ("the maximum number of minutes to let a job run before GitHub
// automatically cancels it", Workflow syntax, jobs.<job_id>.timeout-minutes) and a step's
// (jobs.<job_id>.steps[*].timeout-minutes), for our steps on the platform's time: the time each of our
// steps took on the platform is spent from the job's, however fast that time runs here.
describe(`our steps' timeouts count the platform's time (${SYNTAX}#jobsjob_idtimeout-minutes)`, () => {
  /** A platform whose every build takes `minutes` of its time, in no time of this machine's. */
  function platform(minutes: number) {
    let now = Date.parse("2026-12-02T10:00:00Z");
    const timeouts: OurStep["timeout"][] = [];
    return {
      timeouts,
      options: {
        platformNow: () => now,
        runStep: async (step: OurStep) => {
          timeouts.push(step.timeout);
          now += Math.min(minutes * 60_000, step.timeout.ms);
          return { code: minutes * 60_000 > step.timeout.ms ? 1 : 0, outputs: {} };
        },
      },
    };
  }

  it("gives each step what is left of the job's after the steps before spent theirs on the platform", async () => {
    const { options, timeouts } = platform(4);
    const { jobs } = await rehearse(
      `on: push\njobs:\n  a:\n    runs-on: x\n    timeout-minutes: 10\n    steps:\n${build("One")}${build("Two")}${build("Three")}`,
      options,
    );
    expect(timeouts).toEqual([
      { ms: 600_000, message: "The job has exceeded the maximum execution time of 10 minutes." },
      { ms: 360_000, message: "The job has exceeded the maximum execution time of 10 minutes." },
      { ms: 120_000, message: "The job has exceeded the maximum execution time of 10 minutes." },
    ]);
    expect(jobs.get("a")?.[0]?.result).toBe("failure");
  });

  it("gives a step its own timeout-minutes where that comes first, in the runner's words", async () => {
    const { options, timeouts } = platform(4);
    await rehearse(
      `on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: acme/cwp/actions/trigger-build@v1\n        timeout-minutes: 3\n        with:\n          service-id: web\n`,
      options,
    );
    expect(timeouts).toEqual([{ ms: 180_000, message: "The action has timed out." }]);
  });
});
