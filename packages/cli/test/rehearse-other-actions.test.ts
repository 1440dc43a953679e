import { describe, expect, it } from "vitest";
import {
  GREET_MAIN,
  GREET_V1,
  KIT_V1,
  PINNED,
  steps,
  useOtherActions,
  WORKFLOW_TOKEN,
} from "./other-actions.js";
import { printed, userMachine } from "./rehearse-machine.js";
import { runCli } from "./run-cli.js";

const { actions, rehearseWith } = useOtherActions();

// Other repositories' actions downloaded and run (other-actions.ts has them; their pre and post
// steps: rehearse-action-pre-post.test.ts).

describe("other repositories' actions", () => {
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
