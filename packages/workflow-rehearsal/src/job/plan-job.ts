import { githubContext, type RunFacts, runnerContext, typedInputs } from "../contexts.js";
import { type Scope, tokenText, tokenValue, UnknownValue } from "../expressions.js";
import { jobFindings } from "../findings.js";
import { type Combination, expandMatrix } from "../matrix.js";
import type { JobRecord, RehearsalOptions, StepResult } from "../records.js";
import { jobOf, literalText, neededBy } from "../workflow.js";
import { needsEntry } from "./needs.js";
import { decidedByUnknown } from "./not-ran.js";
import { rehearseCall } from "./reusable-call.js";
import { runJob } from "./run-job.js";
import { ALWAYS, statusOf } from "./status.js";

// A workflow's job run as GitHub runs it, once per combination of its matrix: its `if:` with the
// job-level status functions (success() only when every job up its chain of needs succeeded, so
// `always()` and `failure()` run after a need that failed or was skipped), env layered from the workflow to the
// job to the step (the most specific winning, in env:, with: and if: alike), each step with its
// own `if:`, `continue-on-error` (outcome failure, conclusion success), the `steps` context, and
// the job's outputs for the jobs that need it. Every expression is GitHub's (expressions.ts).
// A step that uses one of our actions is run by the caller; a `run:` step runs only where the
// caller runs scripts (`runScript`, `cwp rehearse --run-shell`); any other step is only read, and
// what it would set is unknown, said so where it is read, never passed on as ''. What a runner
// would refuse is a finding, and fails the job.

/** The facts of the run every job shares. */
export function runFacts(options: RehearsalOptions<StepResult>): RunFacts {
  return {
    event: options.event,
    repository: options.repository,
    workspace: options.workspace,
    temp: options.temp ?? options.workspace,
    workflow: literalText(options.workflow.name) ?? options.workflow.file,
    file: options.workflow.file,
    token: options.token ?? "",
  };
}

/** The workflow's `inputs`, typed: the event's payload carries them as text, as GitHub's does. */
export function inputsOf(options: RehearsalOptions<StepResult>): Record<string, unknown> {
  if (options.callInputs !== undefined) return options.callInputs;
  return options.event.name === "workflow_dispatch" || options.inputs
    ? typedInputs(options.workflow.events, options.inputs ?? {})
    : {};
}

/** The run's name (`run-name`, else the workflow's name), evaluated as GitHub shows it. */
export function runName(options: RehearsalOptions<StepResult>): string {
  const token = options.workflow.runName ?? options.workflow.name;
  if (token === undefined) return options.workflow.file;
  const scope: Scope = {
    contexts: {
      github: githubContext(runFacts(options), ""),
      inputs: inputsOf(options),
      vars: options.vars ?? {},
    },
    status: ALWAYS,
    workspace: options.workspace,
  };
  return tokenText(token, scope);
}

/** The job `id`, rehearsed once per combination of its matrix; `done` holds the jobs it needs. */
export async function rehearseJob<R extends StepResult>(
  options: RehearsalOptions<R>,
  id: string,
  done: ReadonlyMap<string, readonly JobRecord<R>[]> = new Map(),
): Promise<JobRecord<R>[]> {
  const job = jobOf(options.workflow, id);
  const findings = jobFindings(job, options.actions);
  const needs = Object.fromEntries(job.needs.map((need) => [need, needsEntry(done.get(need))]));
  // At the job's level, success() is every job up its chain of needs having succeeded (a skipped
  // one has not), failure() one of them having failed: "a failure or skip applies to all jobs in
  // the dependency chain from the point of failure or skip onwards" ("Workflow syntax",
  // jobs.<job_id>.needs), even past a job that ran on always() and succeeded.
  const chain = neededBy(options.workflow, id).map(
    (ancestor) => [ancestor, needsEntry(done.get(ancestor)).result] as const,
  );
  const unmet = chain.filter(([, result]) => result !== "success").map(([a, result]) => `${a} (${result})`);
  const jobStatus = statusOf({
    failed: () => chain.some(([, result]) => result === "failure"),
    succeeded: () => unmet.length === 0,
    cancelled: () => options.signal?.aborted ?? false,
  });
  const facts = runFacts(options as RehearsalOptions<StepResult>);
  const base: Record<string, unknown> = {
    github: githubContext(facts, id),
    inputs: inputsOf(options as RehearsalOptions<StepResult>),
    vars: options.vars ?? {},
    secrets: { GITHUB_TOKEN: options.token ?? "", ...options.secrets },
    needs,
    runner: runnerContext(options.temp ?? options.workspace),
    env: {},
    job: { status: "success" },
  };
  const jobScope: Scope = { contexts: base, status: jobStatus, workspace: options.workspace };
  if (job.calls) return rehearseCall(options, job, job.calls, jobScope, unmet, findings, rehearseJob);
  const failedRecord = (reason: string): JobRecord<R> => ({
    id,
    job: id,
    ran: false,
    result: "failure",
    success: false,
    steps: [],
    findings: [...findings, `job ${id}: ${reason}`],
    outputs: {},
  });
  let combinations: Combination[];
  let strategy: Record<string, unknown> = {};
  try {
    const value = tokenValue(job.strategy, jobScope);
    strategy = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
    combinations = expandMatrix(strategy.matrix);
  } catch (error) {
    if (error instanceof UnknownValue)
      return [decidedByUnknown({ id, job: id }, findings, "strategy", error)];
    return [failedRecord((error as Error).message)];
  }
  const records: JobRecord<R>[] = [];
  for (const [index, matrix] of combinations.entries()) {
    const contexts = {
      ...base,
      matrix,
      strategy: {
        "fail-fast": strategy["fail-fast"] ?? true,
        "job-index": index,
        "job-total": combinations.length,
        "max-parallel": strategy["max-parallel"] ?? combinations.length,
      },
    };
    records.push(await runJob(options, id, contexts, { ...jobStatus, unmet }, findings, matrix));
  }
  return records;
}
