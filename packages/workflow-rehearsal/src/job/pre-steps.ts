import { mappingText, type Scope, tokenText, UnknownValue } from "../expressions.js";
import { stepLabel } from "../findings.js";
import type { StepResult } from "../records.js";
import type { Step } from "../workflow.js";
import { actionInputs } from "./handlers/action.js";
import { compositeContexts } from "./handlers/composite-action.js";
import { runPre } from "./handlers/javascript-action.js";
import type { JobRun } from "./job-run.js";
import { isOtherRepository, MAX_COMPOSITE_DEPTH, preparedAction } from "./prepare-actions.js";

/**
 * The pre steps of the job's actions from other repositories, in the order of their steps, before
 * the job's first step, as the runner adds them while it sets the job up (ActionManager.cs
 * @0001dcd9, PrepareActionsAsync: "Add 'pre' execution"; JobExtension runs them first). Each reads
 * its step's inputs and env as they are then: the steps before it have not run. Another
 * repository's composite action has the pres of the actions its steps use (other repositories',
 * nested composites' in turn), run at its place in that order, each with its step's inputs read
 * in the composite's own contexts (`inputs`, its `github.action_path`): the runner registers them
 * as the composite's pre steps (ActionManager.cs @258d6c85 lines 369-401, "Embedded Step"), and
 * its composite handler runs them at the composite's pre stage (Handlers/CompositeActionHandler.cs
 * lines 41-44). A local composite's are not: the runner reads a local action.yml only once the job
 * runs, after its pres.
 */
export async function runPreSteps<R extends StepResult>(job: JobRun<R>): Promise<void> {
  const { root } = job;
  for (const [index, step] of root.steps.entries()) {
    const base: Scope = {
      contexts: {
        ...root.contexts,
        github: { ...(root.contexts.github as Record<string, unknown>), action: step.id },
        steps: root.stepsContext,
        env: root.env,
      },
      status: job.status(),
      workspace: job.options.workspace,
    };
    await runPresOf(job, step, base, root.env, (scope) =>
      step.name !== undefined ? tokenText(step.name, scope) : stepLabel(step, index),
    );
  }
}

/** The pre of the action `step` uses, or the pres of the actions its composite's steps use. */
async function runPresOf<R extends StepResult>(
  job: JobRun<R>,
  step: Step,
  base: Scope,
  env: Record<string, string>,
  labelIn: (scope: Scope) => string,
  depth = 0,
): Promise<void> {
  if (!isOtherRepository(step.uses) || depth > MAX_COMPOSITE_DEPTH) return;
  const prepared = await preparedAction(job, step.uses);
  if (prepared.kind !== "read") return;
  const { action } = prepared;
  if (action.kind !== "node" && action.kind !== "composite") return;
  if (action.kind === "node" && !action.pre) return;
  try {
    const stepEnv = { ...env, ...mappingText(step.env, base) };
    const scope: Scope = { ...base, contexts: { ...base.contexts, env: stepEnv } };
    const label = labelIn(scope);
    const inputs = actionInputs(action, mappingText(step.with, scope), scope);
    if (action.kind === "node") {
      await runPre(job, step, label, action, inputs, scope, { action: step.uses, commit: prepared.commit });
      return;
    }
    // The composite's own contexts, as its steps have them, none of them run yet.
    const contexts = { ...compositeContexts(scope.contexts, scope, action, inputs), steps: {} };
    for (const [index, inner] of action.steps.entries())
      await runPresOf(
        job,
        inner,
        { ...scope, contexts },
        stepEnv,
        (innerScope) =>
          `${label} › ${inner.name !== undefined ? tokenText(inner.name, innerScope) : stepLabel(inner, index)}`,
        depth + 1,
      );
  } catch (error) {
    // A value only a step not rehearsed sets: the pre is not run on a guess; its main says so.
    if (!(error instanceof UnknownValue)) throw error;
  }
}
