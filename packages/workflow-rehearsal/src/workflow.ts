import { readFile } from "node:fs/promises";
import { join } from "node:path";
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
 * `defaults.run` of the workflow and the job, one setting at a time, the job's where both set it.
 * A job's may be an expression (GitHub's context availability: jobs.<job_id>.defaults.run takes
 * github, needs, strategy, matrix, env, vars and inputs), evaluated where a step runs; the
 * workflow's takes no expression, and the parser refuses one there.
 */
export interface RunDefaults {
  shell?: TemplateToken;
  workingDirectory?: TemplateToken;
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
  /** `permissions:` as written, the job's and its workflow's (`permissions.ts` reads them). */
  permissions: { job?: TemplateToken; workflow?: TemplateToken };
  steps: Step[];
  /** A job that calls a reusable workflow (`uses:`) instead of running steps. */
  calls?: WorkflowCall;
}

/** A job's `uses:` of a reusable workflow, with what it passes (`with:`, `secrets:`). */
export interface WorkflowCall {
  ref: string;
  /** The workflow, where it is in this repository (`./.github/workflows/x.yml`); none for another's. */
  workflow?: Workflow;
  with: TemplateToken | undefined;
  /** `inherit`, or a mapping of the called workflow's secrets. */
  secrets: TemplateToken | undefined;
}

export interface Workflow {
  file: string;
  name: TemplateToken | undefined;
  runName: TemplateToken | undefined;
  env: TemplateToken | undefined;
  events: EventsConfig;
  /** In the file's order. */
  jobs: Job[];
  /** `on.workflow_call.outputs`: what a reusable workflow gives the job that calls it. */
  callOutputs?: TemplateToken;
}

/** A workflow file GitHub would refuse, or a job it does not have: bad input, in GitHub's words. */
export class WorkflowError extends Error {
  override name = "WorkflowError";
}

export const member = (token: TemplateToken | undefined, key: string): TemplateToken | undefined =>
  token !== undefined && isMapping(token) ? token.find(key) : undefined;

/** A job's and its workflow's `permissions:`, as written. */
const written = (job: TemplateToken | undefined, root: TemplateToken | undefined) => {
  const own = member(job, "permissions");
  const workflow = member(root, "permissions");
  return { ...(own ? { job: own } : {}), ...(workflow ? { workflow } : {}) };
};

/** GitHub's limit on reusable workflows calling others ("Reusing workflows", limitations). */
const MAX_CALL_DEPTH = 4;

/**
 * The workflow in `text` (its path `file`), read and checked as GitHub reads and checks it. With
 * `repository` (the clone's folder), a job's reusable workflow of the same repository
 * (`uses: ./.github/workflows/x.yml`) is read from there and checked by GitHub's parser, its
 * inputs and secrets against the caller's; one of another repository is kept as a reference.
 */
export async function readWorkflow(
  text: string,
  file: string,
  repository?: { folder: string; depth?: number },
): Promise<Workflow> {
  const hostile = hostileYaml(text);
  if (hostile !== undefined) throw new WorkflowError(`${file}: not read: ${hostile}`);
  const parsed = parseWorkflow({ name: file, content: text }, new NoOperationTraceWriter());
  const refused = (messages: string[]) => {
    if (messages.length > 0) throw new WorkflowError(messages.join("\n"));
  };
  refused(parsed.context.errors.getErrors().map((e) => e.message));
  if (parsed.value === undefined) throw new WorkflowError(`${file}: not a workflow`);
  const depth = repository?.depth ?? 0;
  const local = new Map<string, string>();
  const template = await convertWorkflowTemplate(
    parsed.context,
    parsed.value,
    {
      getFileContent: async (ref) => {
        // Another repository's is not fetched (GitHub's parser then says it found none: left out below).
        if (repository === undefined || "owner" in ref) throw new Error("not fetched");
        const content = await readFile(join(repository.folder, ref.path), "utf8");
        local.set(ref.path, content);
        return { name: ref.path, content };
      },
    },
    { fetchReusableWorkflowDepth: repository === undefined ? 0 : 1 },
  );
  const remoteRefs = new Set(
    template.jobs.flatMap((job) =>
      job.type === "reusableWorkflowJob" && !job.ref.value.startsWith("./")
        ? [`(Line: ${job.ref.line}, Col: ${job.ref.col}): Unable to find reusable workflow`]
        : [],
    ),
  );
  const notAnotherRepositorysFetch = (message: string) => ![...remoteRefs].some((at) => message.endsWith(at));
  refused(
    [
      ...parsed.context.errors.getErrors().map((e) => e.message),
      ...(template.errors ?? []).map((e) => e.Message),
    ].filter((message, i, all) => notAnotherRepositorysFetch(message) && all.indexOf(message) === i),
  );
  const root = parsed.value;
  const jobsToken = member(root, "jobs");
  const workflowDefaults = runDefaults(root);
  const jobs: Job[] = [];
  for (const job of template.jobs) {
    const raw = member(jobsToken, job.id.value);
    if (job.type === "reusableWorkflowJob") {
      const ref = job.ref.value;
      const path = ref.replace(/^\.\//, "");
      const content = local.get(path);
      if (ref.startsWith("./") && (repository === undefined || content === undefined))
        throw new WorkflowError(
          `${file}: job ${job.id.value} calls the reusable workflow ${ref}, which a rehearsal reads only from the workflow's own clone; rehearse that workflow's own file`,
        );
      if (depth + 1 > MAX_CALL_DEPTH)
        throw new WorkflowError(
          `${file}: job ${job.id.value}: reusable workflows call each other more than ${MAX_CALL_DEPTH} deep, which GitHub refuses`,
        );
      jobs.push({
        id: job.id.value,
        name: member(raw, "name") as ScalarToken | undefined,
        needs: (job.needs ?? []).map((n) => n.value),
        if: job.if.expression,
        env: undefined,
        strategy: job.strategy,
        outputs: undefined,
        continueOnError: undefined,
        timeoutMinutes: undefined,
        defaults: {},
        permissions: written(raw, root),
        steps: [],
        calls: {
          ref,
          ...(content !== undefined && repository
            ? { workflow: await readWorkflow(content, path, { folder: repository.folder, depth: depth + 1 }) }
            : {}),
          with: member(raw, "with"),
          secrets: member(raw, "secrets"),
        },
      });
      continue;
    }
    const rawContinue = member(raw, "continue-on-error");
    jobs.push({
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
      permissions: written(raw, root),
      steps: stepsOf(file, `job ${job.id.value}`, job.steps, member(raw, "steps")),
    });
  }
  refuseCycles(file, jobs);
  return {
    file,
    name: member(root, "name"),
    runName: member(root, "run-name"),
    env: template.env,
    events: template.events,
    jobs,
    callOutputs: member(member(member(root, "on"), "workflow_call"), "outputs"),
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
  const shell = member(run, "shell");
  const workingDirectory = member(run, "working-directory");
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
