import { isMapping, isString } from "@actions/workflow-parser";
import type { TemplateToken } from "@actions/workflow-parser/templates/tokens/index";
import {
  defaultVariables,
  githubContext,
  type InputSpec,
  type RehearsalEvent,
  type RunFacts,
  runnerContext,
  typedInputs,
  typedValues,
} from "./contexts.js";
import {
  condition,
  interpolate,
  mappingText,
  type Scope,
  SetByScript,
  type StatusFunctions,
  tokenText,
  tokenValue,
  UnknownValue,
} from "./expressions.js";
import { jobFindings, stepLabel } from "./findings.js";
import { forcedOntoNode24, inputWarnings, type LocalAction, readLocalAction } from "./local-actions.js";
import { type Combination, expandMatrix } from "./matrix.js";
import { type ActionShape, ourAction } from "./our-actions.js";
import {
  type Job,
  jobOf,
  jobOrder,
  literalText,
  ownId,
  type RunDefaults,
  type Step,
  type Workflow,
  type WorkflowCall,
} from "./workflow.js";

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

export type { RehearsalEvent };

/** One of our steps, as the caller runs it. */
export interface OurStep {
  action: string;
  name: string;
  /** `with:`, evaluated, over action.yml's expression defaults (`${{ github.token }}`) evaluated. */
  inputs: Record<string, string>;
  /** The step's environment: the workflow's, the job's and its own, evaluated. */
  env: Record<string, string>;
}

/** A `run:` step, for a caller that runs scripts. */
export interface ScriptStep {
  name: string;
  /** The script, its expressions evaluated ("" for a JavaScript action's file). */
  script: string;
  /** A JavaScript action's file (`runs.main`, `pre` or `post`): run with the runner's Node, as `node <file>`, instead of `script`. */
  javascript?: { file: string };
  env: Record<string, string>;
  /** Folders earlier steps added to PATH (GITHUB_PATH), latest first. */
  path: string[];
  /** How long it may run: its `timeout-minutes`, within what is left of its job's. */
  timeoutMs?: number;
  /** Its `shell:`, or its job's or workflow's `defaults.run.shell`; none: the runner's default. */
  shell?: string;
  /** Its `working-directory:` (evaluated), or `defaults.run`'s; relative to the workspace. */
  workingDirectory?: string;
  /** The default variables a runner gives it (GITHUB_*, RUNNER_*, CI), from its contexts. */
  variables: Record<string, string>;
  /** Step debug logging is on (the secret or variable ACTIONS_STEP_DEBUG is true). */
  debug?: boolean;
}

export interface StepResult {
  code: number | null;
  outputs: Record<string, string>;
}

/** A local action's end: its outputs; why it failed before a step ran, or why it was not run. */
export interface LocalResult extends StepResult {
  /** The runner's message where it could not run the action (not there, not valid). */
  error?: string;
  notRehearsed?: string;
  /** What its scripts wrote to GITHUB_ENV. */
  env: Record<string, string>;
  /** What the runner would warn of (a deprecated input given, a Node it is forced onto): the step goes on. */
  warnings?: string[];
}

/** A script's result: what it wrote to GITHUB_OUTPUT, GITHUB_ENV and GITHUB_PATH. */
export interface ScriptResult extends StepResult {
  env: Record<string, string>;
  path: string[];
  /** What it saved for its action's post step (GITHUB_STATE, save-state). */
  state?: Record<string, string>;
}

export interface RehearsalOptions<R extends StepResult> {
  workflow: Workflow;
  event: RehearsalEvent;
  /** owner/name of the repository that holds the workflow. */
  repository: string;
  /** That repository's folder (github.workspace; hashFiles reads there). */
  workspace: string;
  /** runner.temp. */
  temp?: string;
  secrets?: Record<string, string>;
  vars?: Record<string, string>;
  /** A workflow_dispatch's inputs as given (typed and defaulted here). */
  inputs?: Record<string, string>;
  /** The workflow's token (`github.token`). */
  token?: string;
  /** Our actions' inputs and outputs, by name. */
  actions: Record<string, ActionShape>;
  runStep(step: OurStep): Promise<R>;
  runScript?(step: ScriptStep): Promise<ScriptResult>;
  /** The `inputs` of a reusable workflow, as the job that calls it gives them. */
  callInputs?: Record<string, unknown>;
  /** Called as each run of a job (each matrix combination) begins, with its name as GitHub shows it. */
  onJobStart?(job: { id: string; title: string }): void;
  /** Called before a step runs (ours, or a script), with what it gets. */
  onStepStart?(step: StepRecord<R>): void;
  /** Called with each step once it ran, was read, skipped or refused. */
  onStepEnd?(step: StepRecord<R>): void;
  /** Called as each run of a job ends: what its steps left running ends with it, as on a runner. */
  endJob?(): Promise<void>;
}

/** GitHub's `timeout-minutes` for a job that sets none ("Workflow syntax", jobs.<job_id>.timeout-minutes). */
const JOB_TIMEOUT_MINUTES = 360;

/** A `timeout-minutes` (a number, or an expression that gives one) in milliseconds; undefined where none is set. */
function timeoutMs(token: TemplateToken | undefined, scope: Scope): number | undefined {
  if (token === undefined) return undefined;
  const value = Number(tokenValue(token, scope));
  if (!(Number.isFinite(value) && value > 0))
    throw new Error(`timeout-minutes must be a number of minutes above 0 (got ${tokenText(token, scope)})`);
  return value * 60_000;
}

export interface StepRecord<R extends StepResult = StepResult> {
  /** As the runner's log names it: its name (evaluated), else what it uses or runs. */
  name: string;
  id?: string;
  /**
   * ran (one of ours), script (a `run:` step run), read (another action or a script not run),
   * skipped by its `if:`, unknown (it depends on a value only a step not run sets), refused (an
   * expression GitHub would refuse).
   */
  kind: "ran" | "script" | "local" | "read" | "skipped" | "unknown" | "refused";
  action?: string;
  /** What our step gave. */
  result?: R;
  /** What a `run:` step run (--run-shell) gave. */
  script?: ScriptResult;
  /** What a local action (`uses: ./path`) gave: its steps are records of their own, named after it. */
  local?: LocalResult;
  inputs?: Record<string, string>;
  /** The step's environment, its expressions evaluated (what a `run:` script would see). */
  env?: Record<string, string>;
  /** Why it was skipped, not known or refused. */
  reason?: string;
  /** failure with continue-on-error: the step failed and the job goes on. */
  continuedOnError?: boolean;
  /** A `run:` step's shell as set (its own or `defaults.run`'s); none: the runner's default. */
  shell?: string;
  /**
   * Why a step that decides its job's verdict was not rehearsed (another's action, a `run:` step
   * without --run-shell, a value only a step not rehearsed sets): the job then passes only as far
   * as rehearsed.
   */
  notRehearsed?: string;
}

export type JobResult = "success" | "failure" | "skipped";

export interface JobRecord<R extends StepResult = StepResult> {
  /** The job's id. */
  id: string;
  /** As GitHub shows it: its name (evaluated), with the matrix's values for a matrix job. */
  job: string;
  matrix?: Combination;
  ran: boolean;
  result: JobResult;
  /** It ran and failed no step, or did not run; and has no finding. */
  success: boolean;
  steps: StepRecord<R>[];
  /** What a runner would refuse, each naming the job and the step. */
  findings: string[];
  /** Its outputs, for the jobs that need it. */
  outputs: Record<string, string | SetByScript>;
  /** Why it did not run. */
  reason?: string;
  /** It would run on GitHub, but was not rehearsed (another repository's reusable workflow). */
  notRehearsed?: boolean;
}

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

/** Why a step neither of ours nor a script run is not rehearsed, by what it uses or runs. */
function notRehearsedWhy(step: Step, runsScripts: boolean): string {
  if (step.run !== undefined)
    return runsScripts ? "a run: step, not run" : "a run: step, which runs only with --run-shell";
  const uses = step.uses ?? "";
  if (uses.startsWith("./")) return "a local action, which the rehearsal does not run";
  if (uses.startsWith("docker://")) return "a Docker action, which the rehearsal does not run";
  return "another's action, which the rehearsal does not run";
}

/** Every job `id` needs, directly or through the jobs it needs. */
function ancestorsOf(workflow: Workflow, id: string): string[] {
  const found = new Set<string>();
  const visit = (job: string) => {
    for (const need of jobOf(workflow, job).needs)
      if (!found.has(need)) {
        found.add(need);
        visit(need);
      }
  };
  visit(id);
  return [...found];
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

const ALWAYS: StatusFunctions = {
  success: () => true,
  failure: () => false,
  always: () => true,
  cancelled: () => false,
};

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
  const chain = ancestorsOf(options.workflow, id).map(
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
  const posts: (() => Promise<void>)[] = [];
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
  // Post steps, the last action's first, as the runner runs them after the job's steps.
  for (const post of posts.reverse()) await post();
  env = state.env;
  const stepStatus: StatusFunctions = {
    success: () => !failed,
    failure: () => failed,
    always: () => true,
    cancelled: () => false,
  };
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
  const jobFailed = failed && !continues({ continueOnError: job.continueOnError }, { ...jobScope });
  return {
    ...base,
    job: title,
    ran: true,
    result: failed ? "failure" : "success",
    success: !jobFailed && findings.length === 0,
    steps: records,
    findings,
    outputs,
  };
}

/** The `steps` context: each step's outputs, outcome and conclusion, by its id. */
type StepsContext = Record<
  string,
  { outputs: Record<string, string> | SetByScript; outcome: string; conclusion: string }
>;

/** Steps run in order: a job's, or a local composite action's inside one of its steps. */
interface StepsRun<R extends StepResult> {
  options: RehearsalOptions<R>;
  /** Who the steps belong to, for findings: "job build", "job build, action ./.github/actions/x". */
  where: string;
  steps: readonly Step[];
  /** The contexts the steps read (github, inputs, matrix, ...), `steps` and `env` aside. */
  contexts: Record<string, unknown>;
  /** `defaults.run`: the job's; an action's steps get none, as on GitHub. */
  defaults: RunDefaults;
  /** The env the steps start from. */
  env: Record<string, string>;
  /** What a script wrote to GITHUB_ENV: for the job's env too. */
  onEnv?(changes: Record<string, string>): void;
  /** GITHUB_PATH's folders, latest first: the job's, shared by every step in it. */
  path: string[];
  deadline: number;
  findings: string[];
  end(record: StepRecord<R>): void;
  /** How many local actions deep these steps are. */
  depth: number;
  /** Before each step's name: the local action's, for its steps ("Set up › "). */
  prefix: string;
  /** The job's post steps (local JavaScript actions' `runs.post`), run after its steps, last first. */
  posts: (() => Promise<void>)[];
}

async function runSteps<R extends StepResult>(
  run: StepsRun<R>,
): Promise<{ failed: boolean; steps: StepsContext; env: Record<string, string> }> {
  const { options, contexts, path } = run;
  const workspace = options.workspace;
  let env = run.env;
  let failed = false;
  const stepStatus: StatusFunctions = {
    success: () => !failed,
    failure: () => failed,
    always: () => true,
    cancelled: () => false,
  };
  const steps: StepsContext = {};
  for (const [index, step] of run.steps.entries()) {
    // github.action is the step's id: its own, or the one the parser made up (`__run`, `__run_2`).
    const github = { ...(contexts.github as Record<string, unknown>), action: step.id };
    const scope: Scope = { contexts: { ...contexts, github, steps, env }, status: stepStatus, workspace };
    let label = `${run.prefix}${stepLabel(step, index)}`;
    const stepId = ownId(step);
    const named = { name: label, ...(stepId !== undefined ? { id: stepId } : {}) };
    const action = ourAction(step.uses);
    const record: StepRecord<R> = { ...named, kind: "read" };
    try {
      if (step.name !== undefined) record.name = label = `${run.prefix}${tokenText(step.name, scope)}`;
      // A step skipped by its if: never has its env evaluated: one it would read unknown is not
      // known then, and its if: is read with the job's env.
      let stepEnv: Record<string, string>;
      try {
        stepEnv = { ...env, ...mappingText(step.env, scope) };
      } catch (error) {
        if (error instanceof UnknownValue && !condition(step.if, scope)) {
          run.end({ ...record, kind: "skipped", reason: step.if });
          if (stepId !== undefined)
            steps[stepId] = { outputs: {}, outcome: "skipped", conclusion: "skipped" };
          continue;
        }
        throw error;
      }
      const stepScope: Scope = { ...scope, contexts: { ...scope.contexts, env: stepEnv } };
      if (!condition(step.if, stepScope)) {
        run.end({ ...record, kind: "skipped", reason: step.if });
        if (stepId !== undefined) steps[stepId] = { outputs: {}, outcome: "skipped", conclusion: "skipped" };
        continue;
      }
      record.env = stepEnv;
      if (action) {
        const defaults = Object.fromEntries(
          Object.entries(options.actions[action]?.inputs ?? {})
            .filter(([, spec]) => typeof spec.default === "string" && spec.default.includes("${{"))
            .map(([input, spec]) => [input, interpolate(spec.default as string, stepScope)]),
        );
        record.kind = "ran";
        record.action = action;
        record.inputs = mappingText(step.with, stepScope);
        options.onStepStart?.(record);
        record.result = await options.runStep({
          action,
          name: label,
          inputs: { ...defaults, ...record.inputs },
          env: stepEnv,
        });
      } else if (step.run !== undefined && options.runScript) {
        record.kind = "script";
        const shell = step.shell ?? run.defaults.shell;
        if (shell !== undefined) record.shell = shell;
        options.onStepStart?.(record);
        const workingDirectory =
          step.workingDirectory !== undefined
            ? tokenText(step.workingDirectory, stepScope)
            : run.defaults.workingDirectory;
        const result = await options.runScript({
          name: label,
          script: tokenText(step.run, stepScope),
          env: stepEnv,
          path: [...path],
          ...(shell !== undefined ? { shell } : {}),
          ...(workingDirectory !== undefined ? { workingDirectory } : {}),
          variables: defaultVariables(github, contexts.runner as Record<string, unknown>),
          debug: [options.secrets?.ACTIONS_STEP_DEBUG, options.vars?.ACTIONS_STEP_DEBUG].some(
            (value) => value?.toLowerCase() === "true",
          ),
          timeoutMs: Math.max(
            0,
            Math.min(
              timeoutMs(step.timeoutMinutes, stepScope) ?? Number.POSITIVE_INFINITY,
              run.deadline - Date.now(),
            ),
          ),
        });
        record.script = result;
        // What the script wrote to GITHUB_ENV and GITHUB_PATH holds for the steps after it, the
        // job's too where the script is a local action's.
        env = { ...env, ...result.env };
        run.onEnv?.(result.env);
        path.unshift(...result.path.reverse());
      } else if (step.uses?.startsWith("./")) {
        record.kind = "local";
        record.action = step.uses;
        record.inputs = mappingText(step.with, stepScope);
        options.onStepStart?.(record);
        record.local = await runLocalAction(run, step, label, record.inputs, stepScope);
        if (record.local.notRehearsed !== undefined) record.notRehearsed = record.local.notRehearsed;
        env = { ...env, ...record.local.env };
      } else {
        record.notRehearsed = notRehearsedWhy(step, options.runScript !== undefined);
        if (step.with !== undefined) record.inputs = mappingText(step.with, stepScope);
      }
    } catch (error) {
      if (error instanceof UnknownValue) {
        run.end({
          ...record,
          kind: "unknown",
          reason: error.message,
          notRehearsed: `it reads a value ${error.message}`,
        });
        if (stepId !== undefined)
          steps[stepId] = {
            outputs: new SetByScript(label, false),
            outcome: "success",
            conclusion: "success",
          };
        continue;
      }
      const reason = (error as Error).message;
      run.findings.push(`${run.where}, step "${label}": ${reason}`);
      run.end({ ...record, kind: "refused", reason });
      failed = true;
      if (stepId !== undefined) steps[stepId] = { outputs: {}, outcome: "failure", conclusion: "failure" };
      continue;
    }
    const ran = record.result ?? record.script ?? record.local;
    const ok = ran === undefined || ran.code === 0;
    const continueOnError = !ok && continues(step, { ...scope, contexts: { ...scope.contexts, env } });
    if (continueOnError) record.continuedOnError = true;
    run.end(record);
    if (!ok && !continueOnError) failed = true;
    if (stepId !== undefined)
      steps[stepId] = {
        outputs: ran ? ran.outputs : new SetByScript(label, step.run !== undefined),
        outcome: ok ? "success" : "failure",
        conclusion: ok || continueOnError ? "success" : "failure",
      };
  }
  return { failed, steps, env };
}

/** GitHub runs local actions nested at most this deep. */
const MAX_ACTION_DEPTH = 10;

/**
 * A step that uses a local action (`uses: ./path`): a composite action's steps run as the job's
 * do (`run:` steps under --run-shell, ours, other local actions), with its `inputs` (given, else
 * their defaults; `required` is not enforced, as on GitHub, only warned of), `github.action_path`,
 * no `secrets`, `needs` or `vars` (an action has none) and no `defaults.run`; its outputs are its
 * `outputs.<id>.value`. A JavaScript action runs under --run-shell; a Docker action is listed as
 * not rehearsed; one GitHub cannot find or read fails the step with the runner's message.
 */
async function runLocalAction<R extends StepResult>(
  run: StepsRun<R>,
  step: Step,
  label: string,
  given: Record<string, string>,
  scope: Scope,
): Promise<LocalResult> {
  const uses = step.uses as string;
  const none = { outputs: {}, env: {} };
  if (run.depth >= MAX_ACTION_DEPTH)
    return { code: 1, ...none, error: `${uses}: local actions nested more than ${MAX_ACTION_DEPTH} deep` };
  const action = await readLocalAction(run.options.workspace, uses);
  if (action.kind === "refused") return { code: 1, ...none, error: action.message };
  if (action.kind === "docker")
    return { code: 0, ...none, notRehearsed: "a Docker action, which the rehearsal does not run" };
  const declared = action.inputs.map((input) => input.id);
  const unexpected = Object.keys(given).filter((name) => !declared.includes(name));
  if (unexpected.length > 0)
    run.findings.push(
      `${run.where}, step "${label}": Unexpected input(s) '${unexpected.join("', '")}', valid inputs are [${declared.map((d) => `'${d}'`).join(", ")}]`,
    );
  const warnings = inputWarnings(action.inputs, given);
  const inputs = Object.fromEntries(
    action.inputs.map((input) => [
      input.id,
      given[input.id] ?? (input.default !== undefined ? tokenText(input.default, scope) : ""),
    ]),
  );
  if (action.kind === "node") {
    warnings.push(...forcedOntoNode24(action.using, uses));
    const result = await runJavaScriptAction(run, action, label, inputs, scope);
    return warnings.length > 0 ? { ...result, warnings } : result;
  }
  const { secrets: _secrets, needs: _needs, vars: _vars, ...shared } = run.contexts;
  const contexts = {
    ...shared,
    github: { ...(scope.contexts.github as Record<string, unknown>), action_path: action.folder },
    inputs,
  };
  let changes: Record<string, string> = {};
  const inner = await runSteps({
    ...run,
    where: `${run.where}, action ${uses}`,
    steps: action.steps,
    contexts,
    defaults: {},
    env: scope.contexts.env as Record<string, string>,
    onEnv: (set) => {
      changes = { ...changes, ...set };
      run.onEnv?.(set);
    },
    depth: run.depth + 1,
    prefix: `${label} › `,
  });
  const outputScope: Scope = {
    contexts: { ...contexts, steps: inner.steps, env: inner.env },
    status: ALWAYS,
    workspace: run.options.workspace,
  };
  const outputs: Record<string, string> = {};
  for (const output of action.outputs)
    if (output.value !== undefined) outputs[output.id] = tokenText(output.value, outputScope);
  return { code: inner.failed ? 1 : 0, outputs, env: changes, ...(warnings.length > 0 ? { warnings } : {}) };
}

/**
 * A local JavaScript action, run with Node as the runner runs it (`node <file>` in the workspace):
 * its inputs as INPUT_<NAME> (uppercase, spaces as _), `runs.pre` before `runs.main` where
 * `pre-if` holds, `runs.post` at the job's end where `post-if` holds (both default always()), with
 * what main saved (GITHUB_STATE, save-state) as STATE_<name>. Its outputs are what main wrote to
 * GITHUB_OUTPUT. Only under --run-shell: it runs code of the repository's, as a `run:` step does.
 */
async function runJavaScriptAction<R extends StepResult>(
  run: StepsRun<R>,
  action: Extract<LocalAction, { kind: "node" }>,
  label: string,
  inputs: Record<string, string>,
  scope: Scope,
): Promise<LocalResult> {
  const runScript = run.options.runScript;
  if (!runScript)
    return {
      code: 0,
      outputs: {},
      env: {},
      notRehearsed: `a JavaScript action (${action.using}), which runs only with --run-shell`,
    };
  const github = { ...(scope.contexts.github as Record<string, unknown>), action_path: action.folder };
  const env = {
    ...(scope.contexts.env as Record<string, string>),
    ...Object.fromEntries(
      Object.entries(inputs).map(([name, value]) => [
        `INPUT_${name.replace(/ /g, "_").toUpperCase()}`,
        value,
      ]),
    ),
  };
  const node = (file: string, name: string, more: Record<string, string> = {}) =>
    runScript({
      name,
      script: "",
      javascript: { file },
      env: { ...env, ...more },
      path: [...run.path],
      variables: defaultVariables(github, run.contexts.runner as Record<string, unknown>),
      timeoutMs: Math.max(0, run.deadline - Date.now()),
    });
  const phaseScope = { ...scope, contexts: { ...scope.contexts, github } };
  if (action.pre && condition(action.pre.if, phaseScope)) {
    const pre = await node(action.pre.file, `Pre ${label}`);
    if (pre.code !== 0) return { code: pre.code, outputs: {}, env: pre.env };
  }
  const main = await node(action.main, label);
  run.path.unshift(...main.path.reverse());
  run.onEnv?.(main.env);
  const { post } = action;
  if (post)
    run.posts.push(async () => {
      if (!condition(post.if, phaseScope)) return;
      const state = Object.fromEntries(Object.entries(main.state ?? {}).map(([k, v]) => [`STATE_${k}`, v]));
      const record: StepRecord<R> = { name: `Post ${label}`, kind: "script" };
      run.options.onStepStart?.(record);
      record.script = await node(post.file, record.name, state);
      run.end(record);
    });
  return { code: main.code, outputs: main.outputs, env: main.env };
}

/** Whether a step (or job) goes on after it fails: `continue-on-error`, a boolean or an expression. */
function continues(step: Pick<Step, "continueOnError">, scope: Scope): boolean {
  const value = step.continueOnError;
  if (value === undefined) return false;
  if (typeof value === "boolean") return value;
  const evaluated = tokenValue(value, scope);
  return evaluated === true || evaluated === "true";
}
