import { type Contexts, condition, interpolate, type StatusFunctions } from "./expressions.js";
import { jobFindings } from "./findings.js";
import { type ActionShape, ourAction } from "./our-actions.js";
import { type Job, needsOf, stepName, type Workflow } from "./workflow.js";

// One job of a workflow, run as written: its `if:`, its env, and each step in order with its own
// `if:` (a failed step skips the rest unless a status function says otherwise). A step that uses
// one of our actions is run by the caller (the tests run the committed bundle; `cwp rehearse` runs
// the CLI's own engine); any other step is only read, its expressions evaluated so that a wrong
// one fails here too, and counts as passing. What a runner would refuse is a finding, and fails
// the job.

export interface RehearsalEvent {
  /** The event's name (`github.event_name`) and payload (`github.event`). */
  name: string;
  payload: Record<string, unknown>;
  sha: string;
  ref: string;
}

/** One of our steps, as the caller runs it. */
export interface OurStep {
  action: string;
  name: string;
  /** `with:`, evaluated, over action.yml's expression defaults (`${{ github.token }}`) evaluated. */
  inputs: Record<string, string>;
  /** The step's environment: the workflow's, the job's and its own, evaluated. */
  env: Record<string, string>;
}

export interface StepResult {
  code: number | null;
  outputs: Record<string, string>;
}

export interface RehearsalOptions<R extends StepResult> {
  workflow: Workflow;
  /** The workflow's file, for what is said about it. */
  file: string;
  event: RehearsalEvent;
  repository: string;
  secrets?: Record<string, string>;
  vars?: Record<string, string>;
  /** A workflow_dispatch's inputs (`inputs`). */
  inputs?: Record<string, string>;
  /** The workflow's token (`github.token`). */
  token?: string;
  /** Our actions' inputs and outputs, by name. */
  actions: Record<string, ActionShape>;
  runStep(step: OurStep): Promise<R>;
  /** Called before a step of ours runs, with what it gets. */
  onStepStart?(step: StepRecord<R>): void;
  /** Called with each step once it ran, was read, skipped or refused. */
  onStepEnd?(step: StepRecord<R>): void;
}

export interface StepRecord<R extends StepResult = StepResult> {
  /** As the runner's log names it: its name, else what it uses or runs. */
  name: string;
  id?: string;
  /**
   * What happened: ran (one of ours), read (another action or a script), skipped by its `if:`,
   * or refused (an expression that cannot be evaluated).
   */
  kind: "ran" | "read" | "skipped" | "refused";
  /** Our action's name, for a step of ours. */
  action?: string;
  result?: R;
  inputs?: Record<string, string>;
  /** The step's environment, its expressions evaluated (what a `run:` script would see). */
  env?: Record<string, string>;
  /** Why it was skipped or refused. */
  reason?: string;
}

export interface JobRecord<R extends StepResult = StepResult> {
  job: string;
  /** false when the job's own `if:`, or a job it needs, skipped it. */
  ran: boolean;
  success: boolean;
  steps: StepRecord<R>[];
  /** What a runner would refuse, each naming the job and the step. */
  findings: string[];
  /** Why it did not run. */
  reason?: string;
}

/** The job named, rehearsed; `done` holds the jobs already rehearsed (what it needs). */
export async function rehearseJob<R extends StepResult>(
  options: RehearsalOptions<R>,
  name: string,
  done: ReadonlyMap<string, JobRecord<R>> = new Map(),
): Promise<JobRecord<R>> {
  const job: Job | undefined = options.workflow.jobs[name];
  if (!job) throw new Error(`${options.file} has no job ${name}`);
  const findings = jobFindings(name, job, options.actions);
  const notRan = (reason: string): JobRecord<R> => ({
    job: name,
    ran: false,
    success: true,
    steps: [],
    findings,
    reason,
  });
  const unmet = needsOf(job).find((need) => !(done.get(need)?.ran && done.get(need)?.success));
  if (unmet !== undefined) return notRan(`it needs ${unmet}, which did not succeed`);
  // A finding fails the job at its end; the steps still run, as a runner runs them (an unknown
  // input is dropped, an output no step sets reads as ''), so that everything is seen at once.
  let failed = false;
  const status: StatusFunctions = {
    success: () => !failed,
    failure: () => failed,
    always: () => true,
    cancelled: () => false,
  };
  const steps: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }> = {};
  const { event } = options;
  const contexts: Contexts = {
    github: {
      event: event.payload,
      event_name: event.name,
      sha: event.sha,
      ref: event.ref,
      ref_name: event.ref.replace(/^refs\/(heads|tags)\//, ""),
      repository: options.repository,
      repository_owner: options.repository.split("/")[0],
      workflow: options.file,
      job: name,
      token: options.token ?? "",
    },
    secrets: options.secrets ?? {},
    vars: options.vars ?? {},
    inputs: options.inputs ?? {},
    steps,
    env: {},
  };
  const text = (value: unknown) => interpolate(String(value), contexts, status);
  const values = (map: Record<string, unknown> | undefined) =>
    Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, text(v)]));

  try {
    if (!condition(job.if, contexts, status)) return notRan(`its if: is false (${job.if})`);
    contexts.env = { ...values(options.workflow.env), ...values(job.env) };
  } catch (error) {
    return {
      job: name,
      ran: false,
      success: false,
      steps: [],
      findings: [...findings, `job ${name}: ${(error as Error).message}`],
    };
  }
  const records: StepRecord<R>[] = [];
  const end = (record: StepRecord<R>) => {
    records.push(record);
    options.onStepEnd?.(record);
  };
  for (const [index, step] of job.steps.entries()) {
    const label = stepName(step, index);
    const named = { name: label, ...(step.id !== undefined ? { id: step.id } : {}) };
    const action = ourAction(step.uses);
    let record: StepRecord<R>;
    try {
      if (!condition(step.if, contexts, status)) {
        end({ ...named, kind: "skipped", reason: step.if ?? "an earlier step failed" });
        continue;
      }
      const env = { ...(contexts.env as Record<string, string>), ...values(step.env) };
      const inputs = values(step.with);
      record = { ...named, kind: action ? "ran" : "read", inputs, env, ...(action ? { action } : {}) };
      if (action) {
        // action.yml defaults that are expressions (`${{ github.token }}`) are the runner's to evaluate.
        const defaults = Object.fromEntries(
          Object.entries(options.actions[action]?.inputs ?? {})
            .filter(([, spec]) => typeof spec.default === "string" && spec.default.includes("${{"))
            .map(([input, spec]) => [input, text(spec.default)]),
        );
        options.onStepStart?.(record);
        record.result = await options.runStep({
          action,
          name: label,
          inputs: { ...defaults, ...inputs },
          env,
        });
      }
    } catch (error) {
      const reason = (error as Error).message;
      findings.push(`job ${name}, step "${label}": ${reason}`);
      end({ ...named, kind: "refused", reason });
      failed = true;
      continue;
    }
    end(record);
    const ok = record.result === undefined || record.result.code === 0;
    if (!ok) failed = true;
    if (step.id)
      steps[step.id] = {
        outputs: record.result?.outputs ?? {},
        outcome: ok ? "success" : "failure",
        conclusion: ok ? "success" : "failure",
      };
  }
  return { job: name, ran: true, success: !failed && findings.length === 0, steps: records, findings };
}
