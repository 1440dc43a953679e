import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { job, onPath, printed, rehearse, run, userMachine } from "./rehearse-machine.js";

// `cwp rehearse --run-shell` keeps a job as GitHub's runner keeps it on Linux: the job's status,
// reusable workflows, a setup action not run (local actions and the Node they get:
// rehearse-runner-actions.test.ts; run: steps: rehearse-runner.test.ts). Each case states GitHub's
// documented outcome and cites its page or the runner's source; a job that fails on GitHub fails
// here.

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
