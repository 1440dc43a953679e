import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fromData } from "../src/expressions.js";
import { condition, evaluate, type Scope, SetByScript, UnknownValue } from "../src/index.js";

// Expressions as GitHub evaluates them ("Evaluate expressions in workflows and actions",
// https://docs.github.com/en/actions/reference/workflows-and-actions/expressions): every
// function, operator and coercion rule is GitHub's own evaluator's; ours are the contexts, the
// status functions and hashFiles.

const DOCS = "https://docs.github.com/en/actions/reference/workflows-and-actions/expressions";
const scope = (contexts: Record<string, unknown> = {}, workspace = "/nonexistent"): Scope => ({
  contexts: {
    github: {
      ref: "refs/heads/main",
      event: {
        number: 42,
        pull_request: { head: { sha: "abc" }, labels: [{ name: "bug" }, { name: "deploy" }] },
      },
    },
    inputs: { dry: false, count: 3 },
    ...contexts,
  },
  status: { success: () => true, failure: () => false, always: () => true, cancelled: () => false },
  workspace,
});
const value = (expression: string, s = scope()) => fromData(evaluate(expression, s));

describe(`GitHub's expressions (${DOCS})`, () => {
  it("#functions: contains, startsWith, endsWith, format, join, toJSON, fromJSON", () => {
    expect(value("contains('Hello world', 'llo')")).toBe(true);
    expect(value("contains(github.event.pull_request.labels.*.name, 'deploy')")).toBe(true);
    expect(value("startsWith(github.ref, 'refs/heads/')")).toBe(true);
    expect(value("endsWith('Hello world', 'ld')")).toBe(true);
    expect(value("format('Hello {0} {1} {2}', 'Mona', 'the', 'Octocat')")).toBe("Hello Mona the Octocat");
    expect(value("format('{{Hello {0} {1} {2}!}}', 'Mona', 'the', 'Octocat')")).toBe(
      "{Hello Mona the Octocat!}",
    );
    expect(value("join(github.event.pull_request.labels.*.name, ', ')")).toBe("bug, deploy");
    expect(value("fromJSON('{\"a\": [1, 2]}').a[1]")).toBe(2);
    expect(value("toJSON(inputs.count)")).toBe("3");
  });

  it("#operators: < > <= >=, index syntax, object filters, && and || give a value", () => {
    expect(value("inputs.count > 2 && inputs.count <= 3")).toBe(true);
    expect(value("github['event']['number']")).toBe(42);
    expect(value("github.event.pull_request.labels[0].name")).toBe("bug");
    expect(value("github.event.pull_request.labels.*.name")).toEqual(["bug", "deploy"]);
    expect(value("inputs.dry && 'yes' || 'no'")).toBe("no");
  });

  it("#literals and coercion: strings compared case-insensitively, null as 0, '' as 0, a boolean false is false", () => {
    expect(value("'ABC' == 'abc'")).toBe(true);
    expect(value("null == 0")).toBe(true);
    expect(value("'' == 0")).toBe(true);
    expect(value("'0' == 0")).toBe(true);
    expect(value("true == 1")).toBe(true);
    expect(value("inputs.dry == false")).toBe(true);
    // An output nobody set is null: `!= '0'` of null is null != 0 after coercion: false.
    expect(value("steps.x.outputs.changed != '0'", scope({ steps: { x: { outputs: {} } } }))).toBe(false);
    expect(value("0x10 == 16")).toBe(true);
  });

  it("#literals: every doubled single quote in a string is one quote (patches/@actions__expressions@0.3.61.md)", () => {
    // "Escape literal single-quotes using a single quote": GitHub's runner unescapes each one;
    // @actions/expressions 0.3.61 alone unescaped only the first.
    expect(value("'it''s'")).toBe("it's");
    expect(value("'''push'' or ''pull_request'''")).toBe("'push' or 'pull_request'");
    expect(value("format('{0}''s {1}''s', 'a', 'b')")).toBe("a's b's");
  });

  it("a property a value does not have is null, also one named like a JavaScript object's member", () => {
    expect(value("github.event.missing")).toBeNull();
    expect(value("github.event.constructor")).toBeNull();
    expect(value("github.event.__proto__")).toBeNull();
    expect(value("github.event.pull_request.head.sha")).toBe("abc");
  });

  it("refuses a function GitHub does not have and a context the run does not have, in GitHub's words", () => {
    expect(() => evaluate("toString()", scope())).toThrow(/Unrecognized function: 'toString'/);
    expect(() => evaluate("constructor.name", scope())).toThrow(/Unrecognized named-value: 'constructor'/);
  });

  it("the status functions are the job's or the step's; an if: is success() && (...) unless it names one", () => {
    const failed: Scope = {
      ...scope(),
      status: { success: () => false, failure: () => true, always: () => true, cancelled: () => false },
    };
    expect(condition("success() && (true)", failed)).toBe(false);
    expect(condition("failure()", failed)).toBe(true);
    expect(condition("always()", failed)).toBe(true);
    expect(condition("!cancelled()", failed)).toBe(true);
  });

  it("hashFiles hashes the files the patterns match under the workspace, '' when none", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-hash-"));
    await writeFile(join(dir, "package-lock.json"), "{}");
    await writeFile(join(dir, "other.json"), "[]");
    const at = scope({}, dir);
    const one = value("hashFiles('package-lock.json')", at);
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(value("hashFiles('**/*.json', '!other.json')", at)).toBe(one);
    expect(value("hashFiles('**/*.json')", at)).not.toBe(one);
    expect(value("hashFiles('nothing-*.lock')", at)).toBe("");
  });

  it("a value only a step not run sets makes the expression unknown, never ''", () => {
    const steps = { steps: { version: { outputs: new SetByScript("Compute the version", true) } } };
    expect(() => evaluate("steps.version.outputs.value", scope(steps))).toThrow(UnknownValue);
    expect(() => evaluate("format('v{0}', steps.version.outputs.value)", scope(steps))).toThrow(
      /unknown \(set by the run: step "Compute the version"/,
    );
  });
});
