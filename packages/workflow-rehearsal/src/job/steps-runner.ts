import { condition, mappingText, type Scope, SetByScript, tokenText, UnknownValue } from "../expressions.js";
import { stepLabel } from "../findings.js";
import { ourAction } from "../our-actions.js";
import type { StepRecord, StepResult, StepsContext } from "../records.js";
import { ownId, type Step } from "../workflow.js";
import { isCheckout, runCheckout } from "./handlers/checkout.js";
import { runLocalAction } from "./handlers/local-action.js";
import { readOnly } from "./handlers/not-rehearsed.js";
import { runOurAction } from "./handlers/our-action.js";
import { runRemoteAction } from "./handlers/remote-action.js";
import { runScript } from "./handlers/script.js";
import type { JobRun, StepsFrame } from "./job-run.js";
import { isOtherRepository } from "./prepare-actions.js";
import { continues, statusOf } from "./status.js";
import type { StepHandler } from "./step-handler.js";

// The one step loop, for a job's steps and a composite action's, as the runner's StepsRunner runs
// them (actions/runner src/Runner.Worker/StepsRunner.cs @00a736d9): each step's `if:` with the
// step-level status functions, its env, the `steps` context, `continue-on-error` (outcome failure,
// conclusion success); then the step's kind runs it (`handlers/`).

/** The kind of a step, and who runs it. */
function handlerOf(step: Step, runsScripts: boolean, downloads: boolean): StepHandler {
  if (ourAction(step.uses)) return runOurAction;
  if (step.run !== undefined && runsScripts) return runScript;
  if (step.uses?.startsWith("./")) return runLocalAction;
  if (isCheckout(step.uses)) return runCheckout;
  if (isOtherRepository(step.uses) && downloads) return runRemoteAction;
  return readOnly;
}

export async function runSteps<R extends StepResult>(job: JobRun<R>, frame: StepsFrame): Promise<void> {
  const status = statusOf({ failed: () => frame.failed, cancelled: () => job.cancelled });
  const workspace = job.options.workspace;
  for (const [index, step] of frame.steps.entries()) {
    // github.action is the step's id: its own, or the one the parser made up (`__run`, `__run_2`).
    // Inside a composite action, github.action_status is the action's steps' so far.
    const github = {
      ...(frame.contexts.github as Record<string, unknown>),
      action: step.id,
      ...(frame.depth > 0 ? { action_status: frame.failed ? "failure" : "success" } : {}),
    };
    // job.status follows the job's steps: a step that failed (not continuing on error) makes it
    // failure ("Update the job result"). A composite action's steps read the job's as it was when
    // the action began.
    const jobContext =
      frame.depth === 0
        ? { ...(frame.contexts.job as object), status: frame.failed ? "failure" : "success" }
        : frame.contexts.job;
    const secretsNotGiven = new Set<string>();
    const scope: Scope = {
      contexts: { ...frame.contexts, github, job: jobContext, steps: frame.stepsContext, env: frame.env },
      status,
      workspace,
      secretsNotGiven,
    };
    let label = `${frame.prefix}${stepLabel(step, index)}`;
    const stepId = ownId(step);
    const record: StepRecord<R> = {
      name: label,
      ...(stepId !== undefined ? { id: stepId } : {}),
      kind: "read",
      secretsNotGiven,
    };
    const settle = (entry: StepsContext[string]) => {
      job.end(record);
      if (stepId !== undefined) frame.stepsContext[stepId] = entry;
    };
    const skipped = () => {
      Object.assign(record, { kind: "skipped", reason: step.if });
      settle({ outputs: {}, outcome: "skipped", conclusion: "skipped" });
    };
    let ran: StepResult | undefined;
    /** Whether the cancel came while this step ran (a step after it that fails has failed). */
    const cancelledBefore = job.cancelled;
    try {
      if (step.name !== undefined) record.name = label = `${frame.prefix}${tokenText(step.name, scope)}`;
      // A step skipped by its if: never has its env evaluated: one it would read unknown is not
      // known then, and its if: is read with the job's env.
      let stepEnv: Record<string, string>;
      try {
        stepEnv = { ...frame.env, ...mappingText(step.env, scope) };
      } catch (error) {
        if (error instanceof UnknownValue && !condition(step.if, scope)) {
          skipped();
          continue;
        }
        throw error;
      }
      const stepScope: Scope = { ...scope, contexts: { ...scope.contexts, env: stepEnv } };
      if (!condition(step.if, stepScope)) {
        skipped();
        continue;
      }
      record.env = stepEnv;
      ran = await handlerOf(
        step,
        job.options.runScript !== undefined,
        job.options.downloadAction !== undefined,
      )({
        job,
        frame,
        step,
        record,
        label,
        scope: stepScope,
        github,
        runSteps: (inner) => runSteps(job, inner),
      });
    } catch (error) {
      if (error instanceof UnknownValue) {
        Object.assign(record, {
          kind: "unknown",
          reason: error.message,
          notRehearsed: `it reads a value ${error.message}`,
        });
        settle({ outputs: new SetByScript(label, false), outcome: "success", conclusion: "success" });
        continue;
      }
      const reason = (error as Error).message;
      job.findings.push(`${frame.where}, step "${label}": ${reason}`);
      Object.assign(record, { kind: "refused", reason });
      frame.failed = true;
      settle({ outputs: {}, outcome: "failure", conclusion: "failure" });
      continue;
    }
    const ok = ran === undefined || ran.code === 0;
    // A step the cancel ended is cancelled, not failed (StepsRunner: TaskResult.Canceled).
    if (!ok && job.cancelled && !cancelledBefore) {
      record.cancelled = true;
      settle({ outputs: ran?.outputs ?? {}, outcome: "cancelled", conclusion: "cancelled" });
      continue;
    }
    const continueOnError =
      !ok && continues(step, { ...scope, contexts: { ...scope.contexts, env: frame.env } });
    if (continueOnError) record.continuedOnError = true;
    if (!ok && !continueOnError) frame.failed = true;
    settle({
      outputs: ran ? ran.outputs : new SetByScript(label, step.run !== undefined),
      outcome: ok ? "success" : "failure",
      conclusion: ok || continueOnError ? "success" : "failure",
    });
  }
}
