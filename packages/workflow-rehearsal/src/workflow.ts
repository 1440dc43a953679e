import { parse as parseYaml } from "yaml";

// A workflow file as the rehearsal reads it: the parts a job's run depends on. Anything a runner
// would refuse to start (no jobs, a job without steps) is refused here with the file and the job.

export interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}

export interface Job {
  if?: string;
  env?: Record<string, unknown>;
  needs?: string | string[];
  steps: Step[];
}

export interface Workflow {
  on?: unknown;
  env?: Record<string, unknown>;
  jobs: Record<string, Job>;
}

/** A workflow file the rehearsal cannot read, or a job it does not have: bad input. */
export class WorkflowError extends Error {
  override name = "WorkflowError";
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

export function readWorkflow(text: string, file: string): Workflow {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new WorkflowError(`${file} is not YAML: ${(error as Error).message.split("\n")[0]}`);
  }
  if (!isObject(document) || !isObject(document.jobs) || Object.keys(document.jobs).length === 0)
    throw new WorkflowError(`${file} has no jobs: a workflow names its jobs under "jobs:"`);
  for (const [name, job] of Object.entries(document.jobs)) {
    if (isObject(job) && typeof job.uses === "string")
      throw new WorkflowError(
        `${file}: job ${name} calls the reusable workflow ${job.uses}; rehearse that workflow's own file`,
      );
    if (!isObject(job) || !Array.isArray(job.steps) || !job.steps.every(isObject))
      throw new WorkflowError(`${file}: job ${name} has no steps: a job lists its steps under "steps:"`);
  }
  return document as unknown as Workflow;
}

/** The events the workflow runs on (`on:` as a name, a list or a map). */
export function triggersOf(workflow: Workflow): string[] {
  const on = workflow.on;
  if (typeof on === "string") return [on];
  if (Array.isArray(on)) return on.map(String);
  return isObject(on) ? Object.keys(on) : [];
}

/** What a job needs, as a list. */
export const needsOf = (job: Job): string[] =>
  job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs];

/**
 * The jobs in an order a runner could run them one at a time: each after the jobs it needs, else
 * as written. A need the file does not have, or a circle, is refused as a runner refuses it.
 */
export function jobOrder(workflow: Workflow, file: string): string[] {
  const order: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string, from?: string) => {
    if (order.includes(name)) return;
    const job = workflow.jobs[name];
    if (!job) throw new WorkflowError(`${file}: job ${from} needs ${name}, which the file does not have`);
    if (visiting.has(name)) throw new WorkflowError(`${file}: job ${name} needs itself, through ${from}`);
    visiting.add(name);
    for (const need of needsOf(job)) visit(need, name);
    order.push(name);
  };
  for (const name of Object.keys(workflow.jobs)) visit(name);
  return order;
}

/** How a step is named in what the rehearsal prints: as the runner's log names it. */
export function stepName(step: Step, index: number): string {
  if (step.name !== undefined) return String(step.name);
  if (step.uses !== undefined) return step.uses;
  if (step.run !== undefined) return `Run ${String(step.run).split("\n")[0]}`;
  return `step ${index + 1}`;
}
