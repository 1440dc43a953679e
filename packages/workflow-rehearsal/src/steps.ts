import type { TemplateToken } from "@actions/workflow-parser/templates/tokens/index";
import { defaultVariables } from "./contexts.js";
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
import { stepLabel } from "./findings.js";
import { runJavaScriptAction } from "./javascript-action.js";
import { forcedOntoNode24, inputWarnings, readLocalAction } from "./local-actions.js";
import { ourAction } from "./our-actions.js";
import type { LocalResult, StepRecord, StepResult, StepsContext, StepsRun } from "./records.js";
import { prependPath } from "./runner/env-files.js";
import { ownId, type Step } from "./workflow.js";

// A job's steps, or a local composite action's, run in order as a runner runs them: each step's
// `if:` with the step-level status functions, its env, the `steps` context, `continue-on-error`;
// ours and scripts run by the caller, a local action read from the workspace and run here.

/** A `timeout-minutes` (a number, or an expression that gives one) in milliseconds; undefined where none is set. */
export function timeoutMs(token: TemplateToken | undefined, scope: Scope): number | undefined {
  if (token === undefined) return undefined;
  const value = Number(tokenValue(token, scope));
  if (!(Number.isFinite(value) && value > 0))
    throw new Error(`timeout-minutes must be a number of minutes above 0 (got ${tokenText(token, scope)})`);
  return value * 60_000;
}

/** Why a step neither of ours nor a script run is not rehearsed, by what it uses or runs. */
function notRehearsedWhy(step: Step, runsScripts: boolean): string {
  if (step.run !== undefined)
    return runsScripts ? "a run: step, not run" : "a run: step, which runs only with --run-shell";
  const uses = step.uses ?? "";
  if (uses.startsWith("docker://")) return "a Docker action, which the rehearsal does not run";
  return "another's action, which the rehearsal does not run";
}

/** Status functions for what is read after the steps (outputs, names): every step counts as passed. */
export const ALWAYS: StatusFunctions = {
  success: () => true,
  failure: () => false,
  always: () => true,
  cancelled: () => false,
};

export async function runSteps<R extends StepResult>(
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
    // Inside a composite action, github.action_status is the action's steps' so far.
    const github = {
      ...(contexts.github as Record<string, unknown>),
      action: step.id,
      ...(run.depth > 0 ? { action_status: failed ? "failure" : "success" } : {}),
    };
    // job.status follows the job's steps: a step that failed (not continuing on error) makes it
    // failure (actions/runner src/Runner.Worker/StepsRunner.cs @00a736d9, "Update the job result").
    // A composite action's steps read the job's as it was when the action began.
    const job =
      run.depth === 0
        ? { ...(contexts.job as object), status: failed ? "failure" : "success" }
        : contexts.job;
    const scope: Scope = {
      contexts: { ...contexts, github, job, steps, env },
      status: stepStatus,
      workspace,
    };
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
          variables: defaultVariables(github, contexts.runner as Record<string, unknown>),
        });
      } else if (step.run !== undefined && options.runScript) {
        record.kind = "script";
        const shell =
          step.shell ??
          (run.defaults.shell !== undefined ? tokenText(run.defaults.shell, stepScope) : undefined);
        if (shell !== undefined) record.shell = shell;
        options.onStepStart?.(record);
        const workingDirectory =
          step.workingDirectory !== undefined
            ? tokenText(step.workingDirectory, stepScope)
            : run.defaults.workingDirectory !== undefined
              ? tokenText(run.defaults.workingDirectory, stepScope)
              : undefined;
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
        prependPath(path, result.path);
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
  const none = { outputs: {}, env: {}, warnings: [] };
  if (run.depth >= MAX_ACTION_DEPTH)
    return { code: 1, ...none, error: `${uses}: local actions nested more than ${MAX_ACTION_DEPTH} deep` };
  const action = await readLocalAction(run.options.workspace, uses);
  if (action.kind === "refused") return { code: 1, ...none, error: action.message };
  if (action.kind === "docker")
    return { code: 0, ...none, notRehearsed: "a Docker action, which the rehearsal does not run" };
  const warnings = inputWarnings(action.inputs, given);
  // Every `with:` key, declared or not (an undeclared one is warned of and still passed, as
  // INPUT_<NAME> and in `inputs`), and the declared ones' defaults where not given (actions/runner
  // src/Runner.Worker/ActionRunner.cs @00aa7757, RunAsync: "Merge the default inputs from the definition").
  const inputs: Record<string, string> = { ...given };
  for (const input of action.inputs)
    if (!Object.hasOwn(inputs, input.id))
      inputs[input.id] = input.default !== undefined ? tokenText(input.default, scope) : "";
  if (action.kind === "node") {
    warnings.push(...forcedOntoNode24(action.using, uses));
    return { ...(await runJavaScriptAction(run, action, label, inputs, scope)), warnings };
  }
  const { secrets: _secrets, needs: _needs, vars: _vars, ...shared } = run.contexts;
  const contexts = {
    ...shared,
    job: scope.contexts.job,
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
  return { code: inner.failed ? 1 : 0, outputs, env: changes, warnings };
}

/** Whether a step (or job) goes on after it fails: `continue-on-error`, a boolean or an expression. */
export function continues(step: Pick<Step, "continueOnError">, scope: Scope): boolean {
  const value = step.continueOnError;
  if (value === undefined) return false;
  if (typeof value === "boolean") return value;
  const evaluated = tokenValue(value, scope);
  return evaluated === true || evaluated === "true";
}
