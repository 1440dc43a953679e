import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONDITIONAL, GREET_V1, steps, useOtherActions } from "./other-actions.js";
import { printed, userMachine } from "./rehearse-machine.js";

const { rehearseWith } = useOtherActions();

// The pre and post steps of other repositories' actions, as the runner adds and runs them
// (other-actions.ts has the actions; the rest of their life: rehearse-other-actions.test.ts).

describe("other repositories' actions: pre and post", () => {
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
});
