import { isBasicExpression, isMapping, isSequence } from "@actions/workflow-parser";
import type { TemplateToken } from "@actions/workflow-parser/templates/tokens/index";
import { type ActionShape, ourAction } from "./our-actions.js";
import { accessOf, type Permissions, permissionsOf } from "./permissions.js";
import { type Job, keysOf, literalText, member, ownId, type Step } from "./workflow.js";

// What a runner refuses, or what would read as empty on one, found by reading the job before
// anything runs: a `with:` key our action does not have (in the runner's words: "Unexpected
// input(s)"), and a read of `steps.<id>.outputs.<name>` that no earlier step sets. Each finding
// names the job and the step. (What GitHub refuses to start at all, its parser has refused.)

/** Every expression in a token: inside `${{ }}` (the parser's `format(...)`), in keys and values. */
function expressionsIn(token: TemplateToken | undefined): string[] {
  if (token === undefined) return [];
  if (isBasicExpression(token)) return [token.expression];
  if (isSequence(token)) return [...token].flatMap(expressionsIn);
  if (isMapping(token))
    return [...token].flatMap((p) => [...expressionsIn(p.key), ...expressionsIn(p.value)]);
  return [];
}

const STEP_READ = /\bsteps\.([A-Za-z_][\w-]*)\.outputs\.([A-Za-z_][\w-]*)/g;

/** How a step is named before anything is evaluated: its name as written, else what it uses or runs. */
export function stepLabel(step: Step, index: number): string {
  if (step.name !== undefined) return step.name.toString();
  if (step.uses !== undefined) return step.uses;
  if (step.run !== undefined) return `Run ${asWritten(step.run).trimStart().split(/\r?\n/)[0]}`;
  return `step ${index + 1}`;
}

/**
 * A script as its workflow has it, `${{ }}` and all (GitHub titles a step by its script as
 * written; the parser keeps the source of what it turned into a `format()`).
 */
const asWritten = (token: NonNullable<Step["run"]>): string =>
  "source" in token && typeof token.source === "string" ? token.source : token.toString();

/** Edit distance, for "did you mean": a misspelt input is usually one or two keys off. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1)
      row.push(
        Math.min(
          (previous[j] ?? 0) + 1,
          (row[j - 1] ?? 0) + 1,
          (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
        ),
      );
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** The closest of `names` to `name`, if one is close enough to be what was meant. */
export function closest(name: string, names: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of names) {
    const d = distance(name, candidate);
    if (d <= Math.max(2, Math.floor(candidate.length / 4)) && (!best || d < best.distance))
      best = { name: candidate, distance: d };
  }
  return best?.name;
}

/** The inputs given that an action does not have, each with the one meant where one is close enough. */
export function unexpectedInputs(
  given: readonly string[],
  valid: readonly string[],
): { input: string; meant?: string }[] {
  return given
    .filter((input) => !valid.includes(input))
    .map((input) => {
      const meant = closest(input, valid);
      return meant === undefined ? { input } : { input, meant };
    });
}

const quotedList = (names: readonly string[]) => `[${names.map((n) => `'${n}'`).join(", ")}]`;

export function jobFindings(job: Job, shapes: Record<string, ActionShape>): string[] {
  return stepsFindings(`job ${job.id}`, job.steps, shapes, permissionsOf(job.permissions));
}

/**
 * What a step of ours needs of the workflow's token for what its inputs ask, where it uses that
 * token (no `github-token` of its own): a deployment (`environment:`), a comment on the pull
 * request or an issue (usage-report's `comment:`). What its action.yml says of each input.
 */
function permissionsNeeded(action: string, step: Step): { scope: string; because: string }[] {
  if (keysOf(step.with).includes("github-token")) return [];
  const value = (input: string) => {
    const token = member(step.with, input);
    return token === undefined ? undefined : (literalText(token) ?? "an expression");
  };
  const needed: { scope: string; because: string }[] = [];
  const environment = value("environment");
  if (environment !== undefined && environment !== "")
    needed.push({ scope: "deployments", because: "environment: records a GitHub deployment" });
  if (action === "usage-report" && value("comment") === "pr")
    needed.push({ scope: "pull-requests", because: "comment: pr comments on the pull request" });
  if (action === "usage-report" && value("comment") === "issue")
    needed.push({ scope: "issues", because: "comment: issue opens or updates an issue" });
  return needed;
}

/** What a runner would refuse or GitHub would fail in steps (a job's, or a local composite action's). */
export function stepsFindings(
  owner: string,
  steps: readonly Step[],
  shapes: Record<string, ActionShape>,
  permissions: Permissions,
): string[] {
  const findings: string[] = [];
  /** Earlier steps by id: the action's name when it is ours (its outputs are known). */
  const earlier = new Map<string, string | undefined>();
  for (const [index, step] of steps.entries()) {
    const where = `${owner}, step "${stepLabel(step, index)}"`;
    const action = ourAction(step.uses);
    const shape = action === undefined ? undefined : shapes[action];
    // GitHub refuses the request ("Resource not accessible by integration"), and the step fails.
    for (const { scope, because } of action === undefined ? [] : permissionsNeeded(action, step))
      if (accessOf(permissions, scope) !== "write")
        findings.push(
          `${where}: ${because}, which needs permissions ${scope}: write; the token has ${scope}: ${accessOf(permissions, scope)} (${permissions.from})`,
        );
    if (action !== undefined && shape) {
      const valid = Object.keys(shape.inputs);
      const unexpected = unexpectedInputs(keysOf(step.with), valid);
      if (unexpected.length > 0) {
        const meant = unexpected.flatMap((u) =>
          u.meant === undefined ? [] : [`'${u.meant}' for '${u.input}'`],
        );
        findings.push(
          `${where}: Unexpected input(s) ${unexpected.map((u) => `'${u.input}'`).join(", ")}, valid inputs are ${quotedList(valid)}${meant.length > 0 ? `; did you mean ${meant.join(", ")}?` : ""}`,
        );
      }
    }
    const expressions = [step.name, step.run, step.with, step.env].flatMap(expressionsIn);
    expressions.push(step.if);
    for (const expression of expressions)
      for (const [, id, output] of expression.matchAll(STEP_READ)) {
        if (!earlier.has(id as string)) {
          findings.push(
            `${where} reads steps.${id}.outputs.${output}, but no step before it has the id "${id}"`,
          );
          continue;
        }
        const from = earlier.get(id as string);
        const outputs = from === undefined ? undefined : shapes[from]?.outputs;
        if (outputs && !outputs.includes(output as string)) {
          const meant = closest(output as string, outputs);
          findings.push(
            `${where} reads steps.${id}.outputs.${output}, which ${from} does not set${meant ? `; did you mean "${meant}"?` : ` (its outputs: ${outputs.join(", ")})`}`,
          );
        }
      }
    const id = ownId(step);
    if (id !== undefined) earlier.set(id, action);
  }
  return [...new Set(findings)];
}
