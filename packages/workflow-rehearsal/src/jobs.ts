import { isMapping, isString } from "@actions/workflow-parser";
import {
  githubContext,
  type InputSpec,
  type RunFacts,
  runnerContext,
  typedInputs,
  typedValues,
} from "./contexts.js";
import {
  condition,
  mappingText,
  type Scope,
  type SetByScript,
  type StatusFunctions,
  tokenText,
  tokenValue,
  UnknownValue,
} from "./expressions.js";
import { jobFindings } from "./findings.js";
import { type Combination, expandMatrix } from "./matrix.js";
import type { JobRecord, JobResult, RehearsalOptions, StepRecord, StepResult, StepsRun } from "./records.js";
import { ALWAYS, continues, runSteps, timeoutMs } from "./steps.js";
import { type Job, jobOf, jobOrder, literalText, neededBy, type WorkflowCall } from "./workflow.js";

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

/** GitHub's `timeout-minutes` for a job that sets none ("Workflow syntax", jobs.<job_id>.timeout-minutes). */
const JOB_TIMEOUT_MINUTES = 360;

/** A job's records (one per matrix combination) as the jobs that need it see them (`needs.<id>`). */
export function needsEntry(records: readonly JobRecord[] | undefined): {
  result: JobResult;
  outputs: Record<string, string | SetByScript>;
} {
  if (!records || records.length === 0) return { result: "skipped", outputs: {} };
  const result = records.some((r) => r.result === "failure")
    ? "failure"
    : records.every((r) => r.result === "skipped")
      ? "skipped"
      : "success";
  return { result, outputs: Object.assign({}, ...records.map((r) => r.outputs)) };
}

/** The facts of the run every job shares. */
function runFacts(options: RehearsalOptions<StepResult>): RunFacts {
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
function inputsOf(options: RehearsalOptions<StepResult>): Record<string, unknown> {
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
  const jobStatus: StatusFunctions = {
    success: () => unmet.length === 0,
    failure: () => chain.some(([, result]) => result === "failure"),
    always: () => true,
    cancelled: () => false,
  };
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
  const scopeOf = (contexts: Record<string, unknown>, status: StatusFunctions): Scope => ({
    contexts,
    status,
    workspace: options.workspace,
  });
  if (job.calls) return rehearseCall(options, job, job.calls, scopeOf(base, jobStatus), unmet, findings);
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
    const value = tokenValue(job.strategy, scopeOf(base, jobStatus));
    strategy = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
    combinations = expandMatrix(strategy.matrix);
  } catch (error) {
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
    records.push(await rehearseInstance(options, id, contexts, { ...jobStatus, unmet }, findings, matrix));
  }
  return records;
}

/** Why a job's `if:` skips it: the jobs up its chain that did not succeed, where its if: is the default. */
const skippedBecause = (condition: string, unmet: readonly string[]) =>
  unmet.length > 0 && condition === "success()"
    ? `it needs ${unmet.join(", ")}, and its if: is success()`
    : `its if: is false (${condition})`;

/**
 * A job that calls a reusable workflow ("Reusing workflows",
 * https://docs.github.com/en/actions/how-tos/reuse-automations/reuse-workflows): one of this
 * repository runs its jobs in order, with `inputs` typed by its `workflow_call` inputs from the
 * caller's `with:` (defaults where none is given), `secrets` as the caller passes them (`inherit`:
 * every one), and its `outputs` for the jobs that need the caller. Its jobs are named as GitHub
 * shows them, "caller / job". Another repository's is listed as not rehearsed, naming it.
 */
async function rehearseCall<R extends StepResult>(
  options: RehearsalOptions<R>,
  job: Job,
  calls: WorkflowCall,
  scope: Scope,
  unmet: readonly string[],
  findings: readonly string[],
): Promise<JobRecord<R>[]> {
  const title = job.name !== undefined ? tokenText(job.name, scope) : job.id;
  const base = { id: job.id, job: title, steps: [], outputs: {} };
  if (!condition(job.if, scope))
    return [
      {
        ...base,
        findings: [...findings],
        ran: false,
        result: "skipped",
        success: true,
        reason: skippedBecause(job.if, unmet),
      },
    ];
  const called = calls.workflow;
  if (called === undefined)
    return [
      {
        ...base,
        findings: [...findings],
        ran: false,
        result: "success",
        success: true,
        notRehearsed: true,
        reason: `it calls ${calls.ref}, a reusable workflow of another repository, which the rehearsal does not fetch`,
      },
    ];
  let inputs: Record<string, unknown>;
  try {
    // A default that is an expression stays a token: it is evaluated here, in the caller's run.
    const declared = Object.fromEntries(
      Object.entries(called.events.workflow_call?.inputs ?? {}).map(([name, spec]): [string, InputSpec] => [
        name,
        typeof spec.default === "object" && spec.default !== null
          ? { ...spec, default: tokenText(spec.default, scope) }
          : spec,
      ]),
    );
    const given = (tokenValue(calls.with, scope) ?? {}) as Record<string, unknown>;
    inputs = typedValues(
      declared,
      Object.fromEntries(Object.entries(given).map(([name, value]) => [name, String(value)])),
      "with:",
    );
  } catch (error) {
    if (error instanceof UnknownValue) throw error;
    return [
      {
        ...base,
        findings: [...findings, `job ${job.id}: ${(error as Error).message}`],
        ran: false,
        result: "failure",
        success: false,
        reason: (error as Error).message,
      },
    ];
  }
  const secrets =
    calls.secrets !== undefined && isString(calls.secrets) && calls.secrets.value === "inherit"
      ? options.secrets
      : mappingText(calls.secrets, scope);
  const nested: RehearsalOptions<R> = {
    ...options,
    workflow: called,
    callInputs: inputs,
    secrets: secrets ?? {},
    // GitHub names a called workflow's job after the caller: "deploy / ship".
    onJobStart: (started) => options.onJobStart?.({ ...started, title: `${title} / ${started.title}` }),
  };
  const done = new Map<string, JobRecord<R>[]>();
  const records: JobRecord<R>[] = [];
  for (const id of jobOrder(called)) {
    const ran = await rehearseJob(nested, id, done);
    done.set(id, ran);
    records.push(...ran.map((r) => ({ ...r, job: `${title} / ${r.job}` })));
  }
  const jobs = Object.fromEntries([...done].map(([id, ran]) => [id, needsEntry(ran)]));
  const outputScope: Scope = {
    contexts: { ...scope.contexts, jobs, inputs },
    status: ALWAYS,
    workspace: options.workspace,
  };
  const outputs: Record<string, string> = {};
  const extra: string[] = [];
  for (const { key, value } of called.callOutputs !== undefined && isMapping(called.callOutputs)
    ? called.callOutputs
    : []) {
    const valueToken = isMapping(value) ? value.find("value") : undefined;
    try {
      outputs[key.toString()] = tokenText(valueToken, outputScope);
    } catch (error) {
      extra.push(`job ${job.id}, outputs.${key.toString()}: ${(error as Error).message}`);
    }
  }
  const failed = records.some((r) => r.result === "failure");
  return [
    ...records,
    {
      ...base,
      findings: [...findings, ...extra],
      ran: true,
      result: failed ? "failure" : "success",
      success: !failed && extra.length === 0 && records.every((r) => r.success),
      outputs,
    },
  ];
}

/** One run of the job (one matrix combination). */
async function rehearseInstance<R extends StepResult>(
  options: RehearsalOptions<R>,
  id: string,
  contexts: Record<string, unknown>,
  /** The job-level status functions, and the jobs up its chain of needs that did not succeed. */
  jobStatus: StatusFunctions & { unmet: readonly string[] },
  jobFindingsFound: readonly string[],
  matrix: Combination,
): Promise<JobRecord<R>> {
  const job = jobOf(options.workflow, id);
  const findings = [...jobFindingsFound];
  const workspace = options.workspace;
  const jobScope: Scope = { contexts, status: jobStatus, workspace };
  const values = Object.values(matrix).map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v)));
  let title = values.length > 0 ? `${id} (${values.join(", ")})` : id;
  const base = { id, job: title, ...(values.length > 0 ? { matrix } : {}), outputs: {} };
  const notRan = (reason: string, result: JobResult = "skipped"): JobRecord<R> => ({
    ...base,
    job: title,
    ran: false,
    result,
    success: result !== "failure" && findings.length === 0,
    steps: [],
    findings,
    reason,
  });
  let env: Record<string, string>;
  let jobDeadline: number;
  try {
    if (job.name !== undefined) title = tokenText(job.name, jobScope);
    jobDeadline = Date.now() + (timeoutMs(job.timeoutMinutes, jobScope) ?? JOB_TIMEOUT_MINUTES * 60_000);
    options.onJobStart?.({ id, title });
    if (!condition(job.if, jobScope)) {
      return notRan(skippedBecause(job.if, jobStatus.unmet));
    }
    const workflowEnv = mappingText(options.workflow.env, jobScope);
    env = {
      ...workflowEnv,
      ...mappingText(job.env, { ...jobScope, contexts: { ...contexts, env: workflowEnv } }),
    };
  } catch (error) {
    if (error instanceof UnknownValue) return notRan(`its if: or env: is ${error.message}`);
    findings.push(`job ${id}: ${(error as Error).message}`);
    return notRan((error as Error).message, "failure");
  }
  const records: StepRecord<R>[] = [];
  const state = { env, path: [] as string[] };
  const posts: StepsRun<R>["posts"] = [];
  const { failed, steps } = await runSteps({
    options,
    where: `job ${id}`,
    steps: job.steps,
    contexts,
    defaults: job.defaults,
    env,
    onEnv: (changes) => {
      state.env = { ...state.env, ...changes };
    },
    path: state.path,
    deadline: jobDeadline,
    findings,
    end: (record) => {
      records.push(record);
      options.onStepEnd?.(record);
    },
    depth: 0,
    prefix: "",
    posts,
  });
  // Post steps, the last action's first, as the runner runs them after the job's steps, in the
  // same loop: one that fails fails the job (actions/runner src/Runner.Worker/StepsRunner.cs
  // @00a736d9, PostJobSteps, "Update the job result").
  let jobFailed = failed;
  const stepStatus: StatusFunctions = {
    success: () => !jobFailed,
    failure: () => jobFailed,
    always: () => true,
    cancelled: () => false,
  };
  for (const post of posts.reverse()) if (!(await post(stepStatus))) jobFailed = true;
  env = state.env;
  await options.endJob?.();
  const outputs: Record<string, string | SetByScript> = {};
  const outputScope: Scope = { contexts: { ...contexts, steps, env }, status: stepStatus, workspace };
  for (const { key, value } of job.outputs !== undefined && isMapping(job.outputs) ? job.outputs : []) {
    const name = key.toString();
    try {
      outputs[name] = tokenText(value, outputScope);
    } catch (error) {
      if (error instanceof UnknownValue) outputs[name] = error.from;
      else findings.push(`job ${id}, outputs.${name}: ${(error as Error).message}`);
    }
  }
  const fails = jobFailed && !continues({ continueOnError: job.continueOnError }, { ...jobScope });
  return {
    ...base,
    job: title,
    ran: true,
    result: jobFailed ? "failure" : "success",
    success: !fails && findings.length === 0,
    steps: records,
    findings,
    outputs,
  };
}
