import {
  convertWorkflowTemplate,
  isMapping,
  isSequence,
  NoOperationTraceWriter,
  parseWorkflow,
} from "@actions/workflow-parser";
import type { EventsConfig, Step as TemplateStep } from "@actions/workflow-parser/model/workflow-template";
import type {
  MappingToken,
  ScalarToken,
  TemplateToken,
} from "@actions/workflow-parser/templates/tokens/index";
import { hostileYaml } from "./hostile-yaml.js";

// A workflow file read and checked by GitHub's own parser (@actions/workflow-parser, behind its
// editor support): its schema, the contexts each key allows, ids, needs, cron, and its messages
// with line and column. What GitHub would refuse to start is refused here, with GitHub's words.

export interface Step {
  /** The step's id; one the parser made up (`__run`, ...) for a step without one starts with `__`. */
  id: string;
  name: ScalarToken | undefined;
  /** The `if:` as GitHub reads it: `success() && (...)` where it names no status function. */
  if: string;
  env: TemplateToken | undefined;
  uses: string | undefined;
  run: ScalarToken | undefined;
  with: TemplateToken | undefined;
  continueOnError: boolean | ScalarToken | undefined;
  /** `timeout-minutes`, a number or an expression. */
  timeoutMinutes: TemplateToken | undefined;
  /** A `run:` step's `shell:` (no expression: GitHub's schema allows none). */
  shell: string | undefined;
  /** A `run:` step's `working-directory:`, which may hold expressions. */
  workingDirectory: TemplateToken | undefined;
}

/**
 * `defaults.run` of the workflow and the job, one setting at a time, the job's where both set it
 * ("Workflow syntax", defaults.run: no contexts or expressions there).
 */
export interface RunDefaults {
  shell?: string;
  workingDirectory?: string;
}

export interface Job {
  id: string;
  name: ScalarToken | undefined;
  needs: string[];
  if: string;
  env: TemplateToken | undefined;
  strategy: TemplateToken | undefined;
  outputs: TemplateToken | undefined;
  continueOnError: boolean | ScalarToken | undefined;
  /** `timeout-minutes`, a number or an expression (GitHub's default: 360). */
  timeoutMinutes: TemplateToken | undefined;
  /** What `run:` steps use where they set no `shell:` or `working-directory:`. */
  defaults: RunDefaults;
  steps: Step[];
}

export interface Workflow {
  file: string;
  name: TemplateToken | undefined;
  runName: TemplateToken | undefined;
  env: TemplateToken | undefined;
  events: EventsConfig;
  /** In the file's order. */
  jobs: Job[];
}

/** A workflow file GitHub would refuse, or a job it does not have: bad input, in GitHub's words. */
export class WorkflowError extends Error {
  override name = "WorkflowError";
}

export const member = (token: TemplateToken | undefined, key: string): TemplateToken | undefined =>
  token !== undefined && isMapping(token) ? token.find(key) : undefined;

/** The workflow in `text` (its path `file`), read and checked as GitHub reads and checks it. */
export async function readWorkflow(text: string, file: string): Promise<Workflow> {
  const hostile = hostileYaml(text);
  if (hostile !== undefined) throw new WorkflowError(`${file}: not read: ${hostile}`);
  const parsed = parseWorkflow({ name: file, content: text }, new NoOperationTraceWriter());
  const refused = (messages: string[]) => {
    if (messages.length > 0) throw new WorkflowError(messages.join("\n"));
  };
  refused(parsed.context.errors.getErrors().map((e) => e.message));
  if (parsed.value === undefined) throw new WorkflowError(`${file}: not a workflow`);
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  refused([
    ...parsed.context.errors.getErrors().map((e) => e.message),
    ...(template.errors ?? []).map((e) => e.Message),
  ]);
  const root = parsed.value;
  const jobsToken = member(root, "jobs");
  const workflowDefaults = runDefaults(root);
  const jobs: Job[] = template.jobs.map((job) => {
    if (job.type === "reusableWorkflowJob")
      throw new WorkflowError(
        `${file}: job ${job.id.value} calls the reusable workflow ${job.ref.value}, which a rehearsal does not fetch; rehearse that workflow's own file`,
      );
    const raw = member(jobsToken, job.id.value);
    const rawContinue = member(raw, "continue-on-error");
    return {
      id: job.id.value,
      // The name as written (the parser fills in the id where there is none).
      name: member(raw, "name") as ScalarToken | undefined,
      needs: (job.needs ?? []).map((n) => n.value),
      if: job.if.expression,
      env: job.env,
      strategy: job.strategy,
      outputs: job.outputs,
      continueOnError:
        rawContinue === undefined
          ? undefined
          : rawContinue.isLiteral && "value" in rawContinue && typeof rawContinue.value === "boolean"
            ? rawContinue.value
            : (rawContinue as ScalarToken),
      timeoutMinutes: member(raw, "timeout-minutes"),
      defaults: { ...workflowDefaults, ...runDefaults(raw) },
      steps: stepsOf(file, `job ${job.id.value}`, job.steps, member(raw, "steps")),
    };
  });
  refuseCycles(file, jobs);
  return {
    file,
    name: member(root, "name"),
    runName: member(root, "run-name"),
    env: template.env,
    events: template.events,
    jobs,
  };
}

/**
 * Steps as the parser converted them (`steps`), with what the conversion leaves out read from the
 * steps as written (`written`): `with:`, `timeout-minutes:`, `shell:`, `working-directory:`. A
 * workflow's job's steps, or a local composite action's (`owner` names them in messages).
 */
export function stepsOf(
  file: string,
  owner: string,
  steps: readonly TemplateStep[],
  written: TemplateToken | undefined,
): Step[] {
  const asWritten = written !== undefined && isSequence(written) ? [...written] : [];
  return steps.map((step, index) => ({
    id: step.id,
    name: step.name,
    if: step.if?.expression ?? "success()",
    env: "env" in step ? step.env : undefined,
    uses: "uses" in step ? usesOf(file, owner, index, step.uses) : undefined,
    run: "run" in step ? step.run : undefined,
    with: member(asWritten[index], "with"),
    continueOnError: step["continue-on-error"],
    timeoutMinutes: member(asWritten[index], "timeout-minutes"),
    shell: literalText(member(asWritten[index], "shell")),
    workingDirectory: member(asWritten[index], "working-directory"),
  }));
}

/** The settings of `defaults.run` in a workflow's root or a job, where it has them. */
function runDefaults(owner: TemplateToken | undefined): RunDefaults {
  const run = member(member(owner, "defaults"), "run");
  const shell = literalText(member(run, "shell"));
  const workingDirectory = literalText(member(run, "working-directory"));
  return {
    ...(shell !== undefined ? { shell } : {}),
    ...(workingDirectory !== undefined ? { workingDirectory } : {}),
  };
}

/** What `uses:` may name, as the runner reads it: a local path, a Docker image, or owner/repo[/path]@ref. */
const USES = /^(\.\/.*|docker:\/\/.+|[\w.-]+\/[\w.-]+(\/[^@\s]*)?@[^\s]+)$/;

/** A step's `uses:`, refused as the runner refuses a reference it cannot resolve. */
function usesOf(file: string, owner: string, index: number, token: ScalarToken & { value: string }): string {
  const uses = String(token.value);
  if (!USES.test(uses))
    throw new WorkflowError(
      `${file} (Line: ${token.line ?? "?"}, Col: ${token.col ?? "?"}): ${owner}, step ${index + 1}: Expected format {org}/{repo}[/path]@ref. Actual '${uses}'`,
    );
  return uses;
}

/** A circle of needs, refused as GitHub refuses it (its parser leaves that to the service). */
function refuseCycles(file: string, jobs: readonly Job[]): void {
  const needs = new Map(jobs.map((j) => [j.id, j.needs]));
  const state = new Map<string, "visiting" | "done">();
  const visit = (id: string) => {
    state.set(id, "visiting");
    for (const need of needs.get(id) ?? []) {
      if (state.get(need) === "visiting")
        throw new WorkflowError(
          `${file}: Job '${id}' depends on job '${need}' which creates a cycle in the dependency graph.`,
        );
      if (!state.has(need)) visit(need);
    }
    state.set(id, "done");
  };
  for (const job of jobs) if (!state.has(job.id)) visit(job.id);
}

/** The events the workflow runs on. */
export const triggersOf = (workflow: Workflow): string[] => Object.keys(workflow.events);

/** The job named, or a WorkflowError naming the jobs there are. */
export function jobOf(workflow: Workflow, id: string): Job {
  const job = workflow.jobs.find((j) => j.id === id);
  if (!job)
    throw new WorkflowError(
      `${workflow.file} has no job ${id}; its jobs: ${workflow.jobs.map((j) => j.id).join(", ")}`,
    );
  return job;
}

/**
 * The jobs in an order a runner could run them one at a time: each after the jobs it needs, else
 * as written (the parser has refused a need the file does not have, and a circle).
 */
export function jobOrder(workflow: Workflow): string[] {
  const order: string[] = [];
  const visit = (id: string) => {
    if (order.includes(id)) return;
    for (const need of jobOf(workflow, id).needs) visit(need);
    order.push(id);
  };
  for (const job of workflow.jobs) visit(job.id);
  return order;
}

/** The jobs `id` needs, directly or through others. */
export function neededBy(workflow: Workflow, id: string): string[] {
  const all = new Set<string>();
  const visit = (job: string) => {
    for (const need of jobOf(workflow, job).needs)
      if (!all.has(need)) {
        all.add(need);
        visit(need);
      }
  };
  visit(id);
  return [...all];
}

/** A step's id as a workflow names it, or undefined for one the parser made up. */
export const ownId = (step: Step): string | undefined => (step.id.startsWith("__") ? undefined : step.id);

/** The text of a token that is no expression (a `run:` script, a name without `${{ }}`). */
export function literalText(token: TemplateToken | undefined): string | undefined {
  if (token === undefined) return undefined;
  return token.isLiteral ? token.toString() : undefined;
}

/** The mapping token's keys. */
export const keysOf = (token: TemplateToken | undefined): string[] =>
  token !== undefined && isMapping(token) ? [...(token as MappingToken)].map((p) => p.key.toString()) : [];
