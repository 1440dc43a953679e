import { isMapping } from "@actions/workflow-parser";
import {
  condition,
  mappingText,
  type Scope,
  type SetByScript,
  type StatusFunctions,
  tokenText,
  UnknownValue,
} from "../expressions.js";
import type { Combination } from "../matrix.js";
import { permissionsOf } from "../permissions.js";
import type { JobRecord, RehearsalOptions, StepResult } from "../records.js";
import { jobOf } from "../workflow.js";
import { JobRun } from "./job-run.js";
import { decidedByUnknown, notRan } from "./not-ran.js";
import { runPreSteps } from "./pre-steps.js";
import { prepareJobActions } from "./prepare-actions.js";
import { continues } from "./status.js";
import { runSteps } from "./steps-runner.js";
import { jobTimeoutMs } from "./timeouts.js";

// One run of a job (one matrix combination), as the runner's JobRunner runs it: its name and
// `if:`, its env layered from the workflow to the job, its steps in the one loop, its post steps,
// then its outputs for the jobs that need it.

/** Why a job's `if:` skips it: the jobs up its chain that did not succeed, where its if: is the default. */
export const skippedBecause = (condition: string, unmet: readonly string[]) =>
  unmet.length > 0 && condition === "success()"
    ? `it needs ${unmet.join(", ")}, and its if: is success()`
    : `its if: is false (${condition})`;

export async function runJob<R extends StepResult>(
  options: RehearsalOptions<R>,
  id: string,
  contexts: Record<string, unknown>,
  /** The job-level status functions, and the jobs up its chain of needs that did not succeed. */
  jobStatus: StatusFunctions & { unmet: readonly string[] },
  jobFindings: readonly string[],
  matrix: Combination,
): Promise<JobRecord<R>> {
  const job = jobOf(options.workflow, id);
  const findings = [...jobFindings];
  const workspace = options.workspace;
  const jobScope: Scope = { contexts, status: jobStatus, workspace };
  const values = Object.values(matrix).map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v)));
  let title = values.length > 0 ? `${id} (${values.join(", ")})` : id;
  /** As its record names it: by its title once its name is evaluated. */
  const named = () => ({ id, job: title, ...(values.length > 0 ? { matrix } : {}) });
  let run: JobRun<R>;
  try {
    if (job.name !== undefined) title = tokenText(job.name, jobScope);
    const timeoutMs = jobTimeoutMs(job.timeoutMinutes, jobScope);
    options.onJobStart?.({ id, title });
    if (!condition(job.if, jobScope))
      return notRan(named(), findings, "skipped", skippedBecause(job.if, jobStatus.unmet));
    const workflowEnv = mappingText(options.workflow.env, jobScope);
    const env = {
      ...workflowEnv,
      ...mappingText(job.env, { ...jobScope, contexts: { ...contexts, env: workflowEnv } }),
    };
    run = new JobRun(
      options,
      { where: `job ${id}`, steps: job.steps, contexts, defaults: job.defaults, env },
      timeoutMs / 60_000,
      findings,
      permissionsOf(job.permissions),
    );
  } catch (error) {
    // Neither run nor skipped on a guess: GitHub would decide with a value only a step not run sets.
    if (error instanceof UnknownValue) return decidedByUnknown(named(), findings, "if:, name or env:", error);
    findings.push(`job ${id}: ${(error as Error).message}`);
    return notRan(named(), findings, "failure", (error as Error).message);
  }
  await options.startJob?.();
  // Set up job: other repositories' actions downloaded before any step; one GitHub refuses fails
  // the job with none of its steps run.
  const refused = await prepareJobActions(run, job.steps);
  if (refused !== undefined) {
    await options.endJob?.();
    return notRan(named(), [...findings, `job ${id}: ${refused}`], "failure", refused);
  }
  await runPreSteps(run);
  await runSteps(run, run.root);
  // Post steps, the last action's first, as the runner runs them after the job's steps, in the
  // same loop: one that fails fails the job (StepsRunner.cs @00a736d9, PostJobSteps).
  await run.runPosts();
  await options.endJob?.();
  const failed = run.root.failed;
  const outputs: Record<string, string | SetByScript> = {};
  const outputScope: Scope = {
    contexts: { ...contexts, steps: run.root.stepsContext, env: run.env },
    status: run.status(),
    workspace,
  };
  for (const { key, value } of job.outputs !== undefined && isMapping(job.outputs) ? job.outputs : []) {
    const name = key.toString();
    try {
      outputs[name] = tokenText(value, outputScope);
    } catch (error) {
      if (error instanceof UnknownValue) outputs[name] = error.from;
      else findings.push(`job ${id}, outputs.${name}: ${(error as Error).message}`);
    }
  }
  const fails = failed && !continues({ continueOnError: job.continueOnError }, jobScope);
  return {
    ...named(),
    ran: true,
    result: failed ? "failure" : run.cancelled ? "cancelled" : "success",
    success: !fails && findings.length === 0,
    steps: run.records,
    findings,
    outputs,
    ...(run.summaries.length > 0 ? { summary: run.summaries.join("\n") } : {}),
  };
}
