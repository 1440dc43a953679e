import { type Scope, tokenText } from "../../expressions.js";
import { stepsFindings } from "../../findings.js";
import type { LocalAction } from "../../local-actions.js";
import type { StepResult } from "../../records.js";
import { ALWAYS } from "../status.js";
import type { StepRun } from "../step-handler.js";

/**
 * The contexts a composite's steps read (its pres too, pre-steps.ts): the caller's but `secrets`,
 * `needs` and `vars` (an action has none), with its `inputs` and `github.action_path`.
 */
export function compositeContexts(
  caller: Record<string, unknown>,
  scope: Scope,
  action: Extract<LocalAction, { kind: "composite" }>,
  inputs: Record<string, string>,
): Record<string, unknown> {
  const { secrets: _secrets, needs: _needs, vars: _vars, ...shared } = caller;
  return {
    ...shared,
    github: { ...(scope.contexts.github as Record<string, unknown>), action_path: action.folder },
    inputs,
  };
}

/**
 * A local composite action: its steps run in the job's step loop as the job's do (`run:` steps
 * under --run-shell, ours, other local actions), in a frame of their own (their own `steps`
 * context, `github.action_status`), with its `inputs`, `github.action_path`, no `secrets`, `needs`
 * or `vars` (an action has none) and no `defaults.run`; its outputs are its `outputs.<id>.value`.
 */
export async function runCompositeAction<R extends StepResult>(
  run: StepRun<R>,
  action: Extract<LocalAction, { kind: "composite" }>,
  inputs: Record<string, string>,
): Promise<StepResult> {
  const { job, frame, step, label, scope } = run;
  const contexts = { ...compositeContexts(frame.contexts, scope, action, inputs), job: scope.contexts.job };
  const where = `${frame.where}, action ${step.uses}`;
  // Our steps inside it are checked as a job's are: their inputs, what they read, the token's permissions.
  for (const finding of stepsFindings(where, action.steps, job.options.actions, job.permissions))
    if (!job.findings.includes(finding)) job.findings.push(finding);
  const inner = job.frameBelow(frame, {
    where,
    steps: action.steps,
    contexts,
    env: scope.contexts.env as Record<string, string>,
    prefix: `${label} › `,
  });
  await run.runSteps(inner);
  const outputScope: Scope = {
    contexts: { ...contexts, steps: inner.stepsContext, env: inner.env },
    status: ALWAYS,
    workspace: job.options.workspace,
  };
  const outputs: Record<string, string> = {};
  for (const output of action.outputs)
    if (output.value !== undefined) outputs[output.id] = tokenText(output.value, outputScope);
  return { code: inner.failed ? 1 : 0, outputs };
}
