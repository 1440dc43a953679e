import { describe, expect, it } from "vitest";
import { jobOrder, readWorkflow, rehearseJob, triggersOf, WorkflowError } from "../src/index.js";

// The workflow as the rehearsal reads it: refused as a runner refuses it, jobs in an order their
// needs allow, and a job after a failed one it needs not run.

const file = "w.yml";

describe("a workflow, read", () => {
  it("refuses a file without jobs, a job without steps, and a reusable workflow's call, naming the job", () => {
    expect(() => readWorkflow("on: push", file)).toThrow(
      new WorkflowError('w.yml has no jobs: a workflow names its jobs under "jobs:"'),
    );
    expect(() => readWorkflow("jobs:\n  a:\n    runs-on: x", file)).toThrow(/job a has no steps/);
    expect(() => readWorkflow("jobs:\n  a:\n    uses: o/r/.github/workflows/x.yml@v1", file)).toThrow(
      /job a calls the reusable workflow o\/r\/.github\/workflows\/x.yml@v1/,
    );
    expect(() => readWorkflow("jobs: [", file)).toThrow(/w.yml is not YAML/);
  });

  it("orders jobs after what they need, and refuses a need the file does not have or a circle", () => {
    const steps = "steps: [{ run: x }]";
    const workflow = readWorkflow(
      `jobs:\n  c: { needs: [a, b], ${steps} }\n  b: { needs: a, ${steps} }\n  a: { ${steps} }`,
      file,
    );
    expect(jobOrder(workflow, file)).toEqual(["a", "b", "c"]);
    expect(() => jobOrder(readWorkflow(`jobs:\n  a: { needs: z, ${steps} }`, file), file)).toThrow(
      "w.yml: job a needs z, which the file does not have",
    );
    expect(() =>
      jobOrder(readWorkflow(`jobs:\n  a: { needs: b, ${steps} }\n  b: { needs: a, ${steps} }`, file), file),
    ).toThrow(/needs itself/);
  });

  it("reads on: as a name, a list or a map", () => {
    expect(triggersOf(readWorkflow("on: push\njobs: { a: { steps: [] } }", file))).toEqual(["push"]);
    expect(triggersOf(readWorkflow("on: [push, pull_request]\njobs: { a: { steps: [] } }", file))).toEqual([
      "push",
      "pull_request",
    ]);
    expect(triggersOf(readWorkflow("on: { schedule: [] }\njobs: { a: { steps: [] } }", file))).toEqual([
      "schedule",
    ]);
  });

  it("does not run a job whose needed job failed", async () => {
    const workflow = readWorkflow(
      "jobs:\n  a: { steps: [{ run: x }] }\n  b: { needs: a, steps: [{ run: y }] }",
      file,
    );
    const options = {
      workflow,
      file,
      event: { name: "push", payload: {}, sha: "0".repeat(40), ref: "refs/heads/main" },
      repository: "o/r",
      actions: {},
      runStep: async () => ({ code: 0, outputs: {} }),
    };
    const a = await rehearseJob(options, "a");
    expect(a.success).toBe(true);
    const failedA = { ...a, success: false };
    const b = await rehearseJob(options, "b", new Map([["a", failedA]]));
    expect([b.ran, b.reason]).toEqual([false, "it needs a, which did not succeed"]);
    expect((await rehearseJob(options, "b", new Map([["a", a]]))).ran).toBe(true);
  });
});
