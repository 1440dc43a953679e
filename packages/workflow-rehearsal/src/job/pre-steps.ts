import { mappingText, type Scope, tokenText, UnknownValue } from "../expressions.js";
import { stepLabel } from "../findings.js";
import type { StepResult } from "../records.js";
import { actionInputs } from "./handlers/action.js";
import { runPre } from "./handlers/javascript-action.js";
import type { JobRun } from "./job-run.js";
import { isOtherRepository, preparedAction } from "./prepare-actions.js";

/**
 * The pre steps of the job's actions from other repositories, in the order of their steps, before
 * the job's first step, as the runner adds them while it sets the job up (ActionManager.cs
 * @0001dcd9, PrepareActionsAsync: "Add 'pre' execution"; JobExtension runs them first). Each reads
 * its step's inputs and env as they are then: the steps before it have not run.
 */
export async function runPreSteps<R extends StepResult>(job: JobRun<R>): Promise<void> {
  const { root } = job;
  for (const [index, step] of root.steps.entries()) {
    if (!isOtherRepository(step.uses)) continue;
    const prepared = await preparedAction(job, step.uses);
    if (prepared.kind !== "read" || prepared.action.kind !== "node" || !prepared.action.pre) continue;
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
    try {
      const env = { ...root.env, ...mappingText(step.env, base) };
      const scope = { ...base, contexts: { ...base.contexts, env } };
      const label = step.name !== undefined ? tokenText(step.name, scope) : stepLabel(step, index);
      const inputs = actionInputs(prepared.action, mappingText(step.with, scope), scope);
      await runPre(job, step, label, prepared.action, inputs, scope, {
        action: step.uses,
        commit: prepared.commit,
      });
    } catch (error) {
      // A value only a step not rehearsed sets: the pre is not run on a guess; its main says so.
      if (!(error instanceof UnknownValue)) throw error;
    }
  }
}
