import { condition, type Scope } from "../../expressions.js";
import type { LocalAction } from "../../local-actions.js";
import type { ScriptResult, StepRecord, StepResult } from "../../records.js";
import type { Step } from "../../workflow.js";
import type { JobRun, StepsFrame } from "../job-run.js";
import type { StepRun } from "../step-handler.js";
import { stepTimeoutMs } from "../timeouts.js";

type NodeAction = Extract<LocalAction, { kind: "node" }>;

/**
 * A JavaScript action, run with Node as the runner runs it (`node <file>` in the workspace): its
 * inputs as INPUT_<NAME> (uppercase, spaces as _), `runs.main`, then `runs.post` after the job's
 * steps where `post-if` holds (default always(), read with the job's status then), with what pre
 * and main saved (GITHUB_STATE, save-state) as STATE_<name>; a post that fails fails the job
 * (`JobRun.runPosts`). Its `runs.pre` ran at the job's start (`runPre`), for another repository's
 * action only (see `LocalAction`). Its outputs are what main wrote to GITHUB_OUTPUT. Only under
 * --run-shell: it runs code of a repository's, as a `run:` step does.
 */
export async function runJavaScriptAction<R extends StepResult>(
  { job, frame, step, label, scope, record }: StepRun<R>,
  action: NodeAction,
  inputs: Record<string, string>,
): Promise<StepResult & { notRehearsed?: string }> {
  if (!job.options.runScript)
    return {
      code: 0,
      outputs: {},
      notRehearsed: `a JavaScript action (${action.using}), which runs only with --run-shell`,
    };
  const github = { ...(scope.contexts.github as Record<string, unknown>), action_path: action.folder };
  const env = { ...(scope.contexts.env as Record<string, string>), ...inputsEnv(inputs) };
  registerPost(job, frame, step, label, action, { env, github, scope, of: ofAction(record, step) });
  const main = await nodeStep(job, {
    file: action.main,
    name: label,
    env: { ...env, ...stateEnv(job.actionStates.get(step) ?? {}) },
    github,
    stepTimeout: stepTimeoutMs(step.timeoutMinutes, scope),
  });
  job.applyFiles(frame, main);
  job.actionStates.set(step, { ...job.actionStates.get(step), ...main.state });
  return { code: main.code, outputs: main.outputs };
}

/**
 * The action's post, registered as its pre or main step starts, once (the runner's ActionRunner.cs
 * @258d6c85 lines 113-136: "Register post job cleanup" where the action has a post and the stage
 * is pre or main; ExecutionContext.cs lines 353-357 keep the first registration): a post whose
 * pre ran is registered then, and runs even where the job failed before its main. It runs where
 * `post-if` holds with the job's status when it is reached, with what pre and main saved.
 */
function registerPost<R extends StepResult>(
  job: JobRun<R>,
  frame: StepsFrame,
  step: Step,
  label: string,
  action: NodeAction,
  { env, github, scope, of }: StageContext,
): void {
  const { post } = action;
  if (!post || job.postsRegistered.has(step)) return;
  job.postsRegistered.add(step);
  job.posts.push(async (status) => {
    if (!condition(post.if, { ...scope, contexts: { ...scope.contexts, github }, status })) return true;
    const state = stateEnv(job.actionStates.get(step) ?? {});
    const stage = { file: post.file, env: { ...env, ...state }, github };
    return (await recordedNodeStep(job, frame, `Post ${label}`, stage, { stage: "post", ...of })).ok;
  });
}

/**
 * Another repository's JavaScript action's `runs.pre`, run as the job starts, before its first
 * step, where `pre-if` holds (default always()), with the step's inputs and env as they read then
 * (ActionManager.cs @0001dcd9, "Add 'pre' execution"; the runner's pre step is named "Pre " and the
 * step's name). What it saves (GITHUB_STATE) is main's and post's STATE_<name>; one that fails
 * fails the job, and the steps after it run only where their if: holds after a failure.
 */
export async function runPre<R extends StepResult>(
  job: JobRun<R>,
  step: Step,
  label: string,
  action: NodeAction,
  inputs: Record<string, string>,
  scope: Scope,
  of: ActionOf,
): Promise<void> {
  const { pre } = action;
  if (!pre || !job.options.runScript || !condition(pre.if, scope)) return;
  const github = { ...(scope.contexts.github as Record<string, unknown>), action_path: action.folder };
  const env = { ...(scope.contexts.env as Record<string, string>), ...inputsEnv(inputs) };
  registerPost(job, job.root, step, label, action, { env, github, scope, of });
  const stage = { file: pre.file, env, github };
  const ran = await recordedNodeStep(job, job.root, `Pre ${label}`, stage, { stage: "pre", ...of });
  job.actionStates.set(step, ran.state);
  if (!ran.ok) job.root.failed = true;
}

/** The action a pre or post step is of: what the step uses, and the commit another repository's was downloaded at. */
export interface ActionOf {
  action: string;
  commit?: string | undefined;
}

/** What a pre or post step runs with, and what action it is of. */
interface StageContext {
  env: Record<string, string>;
  github: Record<string, unknown>;
  scope: Scope;
  of: ActionOf;
}

/** The action a step's record says it uses (and its commit), else what the step names. */
const ofAction = (record: StepRecord<StepResult>, step: Step): ActionOf => ({
  action: record.action ?? step.uses ?? "",
  commit: record.commit,
});

/** A pre or post step: a record of its own (named as the runner's log names it), its files applied, whether it passed. */
async function recordedNodeStep<R extends StepResult>(
  job: JobRun<R>,
  frame: StepsFrame,
  name: string,
  step: { file: string; env: Record<string, string>; github: Record<string, unknown> },
  { stage, action, commit }: ActionOf & { stage: "pre" | "post" },
): Promise<{ ok: boolean; state: Record<string, string> }> {
  const record: StepRecord<R> = { name, kind: "script", stage, action, ...(commit ? { commit } : {}) };
  job.options.onStepStart?.(record);
  record.script = await nodeStep(job, { ...step, name });
  job.applyFiles(frame, record.script);
  job.end(record);
  return { ok: record.script.code === 0, state: record.script.state ?? {} };
}

/** One of the action's files with the runner's Node, within its timeout and the job's, on this machine's time. */
function nodeStep<R extends StepResult>(
  job: JobRun<R>,
  step: {
    file: string;
    name: string;
    env: Record<string, string>;
    github: Record<string, unknown>;
    stepTimeout?: number | undefined;
  },
): Promise<ScriptResult> {
  const runScript = job.options.runScript as NonNullable<typeof job.options.runScript>;
  return job.timed("machine", step.stepTimeout, (timeout) =>
    runScript({
      name: step.name,
      script: "",
      javascriptFile: step.file,
      // The Actions services, as the runner gives them to an action and not to a script.
      env: { ...step.env, ...job.options.actionsRuntime?.(job.root.where) },
      path: [...job.path],
      variables: job.variables(step.github),
      timeout,
    }),
  );
}

const inputsEnv = (inputs: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(inputs).map(([name, value]) => [`INPUT_${name.replace(/ /g, "_").toUpperCase()}`, value]),
  );

const stateEnv = (state: Record<string, string>) =>
  Object.fromEntries(Object.entries(state).map(([k, v]) => [`STATE_${k}`, v]));
