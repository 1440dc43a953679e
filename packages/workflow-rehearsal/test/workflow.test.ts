import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { jobOrder, neededBy, readWorkflow, triggersOf, WorkflowError } from "../src/index.js";

// A workflow read by GitHub's own parser: what GitHub refuses to start is refused with GitHub's
// message, line and column ("Workflow syntax for GitHub Actions",
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax).

const file = ".github/workflows/w.yml";
const refusal = async (text: string) => {
  const error = await readWorkflow(text, file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkflowError);
  return (error as Error).message;
};
const job = (steps: string) => `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`;

describe("a workflow GitHub refuses is refused, in GitHub's words with line and column", () => {
  it("a misspelt key", async () => {
    expect(await refusal(`on: push\njobs:\n  a:\n    runs-on: x\n    stpes:\n      - run: echo\n`)).toMatch(
      /w\.yml \(Line: 5, Col: 5\): Unexpected value 'stpes'/,
    );
  });

  it("an event GitHub does not have", async () => {
    expect(await refusal("on: pushh\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: echo\n")).toMatch(
      /Line: 1, Col: 5\): Unexpected value 'pushh'/,
    );
  });

  it("uses and run in one step", async () => {
    expect(await refusal(job("      - uses: actions/checkout@v4\n        run: echo hi\n"))).toMatch(
      /Line: 7, Col: 9\): Unexpected value 'run'/,
    );
  });

  it("an unclosed ${{", async () => {
    expect(await refusal(job("      - run: echo ${{ github.sha }\n"))).toMatch(
      /Line: 6, Col: 14\): The expression is not closed/,
    );
  });

  it("a context a key does not allow (steps in a job's if:)", async () => {
    expect(
      await refusal(
        "on: push\njobs:\n  a:\n    if: steps.x.outputs.y\n    runs-on: x\n    steps:\n      - run: echo\n",
      ),
    ).toMatch(/Unrecognized named-value: 'steps'/);
  });

  it("a need the file does not have, a circle, and hostile shapes: needs: constructor, uses: 5", async () => {
    const steps = "    runs-on: x\n    steps:\n      - run: echo\n";
    expect(await refusal(`on: push\njobs:\n  b:\n${steps}  a:\n    needs: constructor\n${steps}`)).toMatch(
      /Job 'a' depends on unknown job 'constructor'/,
    );
    expect(await refusal(`on: push\njobs:\n  a:\n    needs: constructor\n${steps}`)).toMatch(
      /must contain at least one job with no dependencies/,
    );
    expect(
      await refusal(
        `on: push\njobs:\n  c:\n${steps}  a:\n    needs: b\n${steps}  b:\n    needs: a\n${steps}`,
      ),
    ).toMatch(/cycle/i);
    expect(await refusal(job("      - uses: 5\n"))).toMatch(
      /Line: 6, Col: 15\): job a, step 1: Expected format \{org\}\/\{repo\}\[\/path\]@ref. Actual .5./,
    );
  });

  it("an expression nested 20,000 deep, or longer than GitHub allows", async () => {
    const deep = `${"(".repeat(20_000)}true${")".repeat(20_000)}`;
    expect(await refusal(job(`      - if: \${{ ${deep} }}\n        run: echo\n`))).toMatch(
      /depth|nested|exceed/i,
    );
    const long = `'${"x".repeat(22_000)}' == 'y'`;
    expect(await refusal(job(`      - if: \${{ ${long} }}\n        run: echo\n`))).toMatch(
      /exceeds|length|long/i,
    );
  });

  it("a call of the repository's own reusable workflow, read without its clone, is refused naming it", async () => {
    expect(await refusal("on: push\njobs:\n  a:\n    uses: ./.github/workflows/x.yml\n")).toMatch(
      /job a calls the reusable workflow \.\/\.github\/workflows\/x\.yml, which a rehearsal reads only from the workflow's own clone/,
    );
  });

  it("another repository's reusable workflow is kept as a reference, not fetched", async () => {
    const workflow = await readWorkflow(
      "on: push\njobs:\n  a:\n    uses: o/r/.github/workflows/x.yml@v1\n",
      file,
    );
    expect(workflow.jobs[0]?.calls).toMatchObject({ ref: "o/r/.github/workflows/x.yml@v1" });
    expect(workflow.jobs[0]?.calls?.workflow).toBeUndefined();
  });
});

describe("a workflow, read", () => {
  it("orders jobs after what they need; --job takes the jobs it needs along", async () => {
    const steps = "runs-on: x, steps: [{ run: x }]";
    const workflow = await readWorkflow(
      `on: push\njobs:\n  c: { needs: [a, b], ${steps} }\n  b: { needs: a, ${steps} }\n  a: { ${steps} }`,
      file,
    );
    expect(jobOrder(workflow)).toEqual(["a", "b", "c"]);
    expect(neededBy(workflow, "c").sort()).toEqual(["a", "b"]);
  });

  it("reads on: as a name, a list or a map", async () => {
    const jobs = "jobs: { a: { runs-on: x, steps: [{ run: x }] } }";
    expect(triggersOf(await readWorkflow(`on: push\n${jobs}`, file))).toEqual(["push"]);
    expect(triggersOf(await readWorkflow(`on: [push, pull_request]\n${jobs}`, file))).toEqual([
      "push",
      "pull_request",
    ]);
    expect(
      triggersOf(await readWorkflow(`on: { schedule: [{ cron: "0 1 * * *" }] }\n${jobs}`, file)),
    ).toEqual(["schedule"]);
  });
});

describe("GitHub's libraries load on plain Node, as published and patched", () => {
  // @actions/workflow-parser 0.3.61 imports its schemas' JSON without `with { type: "json" }`,
  // which Node refuses (ERR_IMPORT_ATTRIBUTE_MISSING) outside a bundler or vitest: patched
  // (patches/@actions__workflow-parser@0.3.61.patch; the upstream report beside it).
  it("imports @actions/workflow-parser and @actions/expressions, reads a workflow, evaluates", () => {
    const script = `
      import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from "@actions/workflow-parser";
      import { data, Evaluator, Lexer, Parser } from "@actions/expressions";
      const parsed = parseWorkflow({ name: "w.yml", content: "on: push\\njobs:\\n  a:\\n    runs-on: x\\n    steps:\\n      - run: echo\\n" }, new NoOperationTraceWriter());
      const template = await convertWorkflowTemplate(parsed.context, parsed.value);
      const ast = new Parser(new Lexer("format('{0}', 'ok')").lex().tokens, [], []).parse();
      console.log(JSON.stringify([template.jobs.map((j) => j.id.value), new Evaluator(ast, new data.Dictionary()).evaluate().coerceString()]));
    `;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual([["a"], "ok"]);
  });
});
