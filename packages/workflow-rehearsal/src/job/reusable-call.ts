import { isMapping, isString } from "@actions/workflow-parser";
import { type InputSpec, typedValues } from "../contexts.js";
import { condition, mappingText, type Scope, tokenText, tokenValue, UnknownValue } from "../expressions.js";
import type { JobRecord, JobResult, RehearsalOptions, StepResult } from "../records.js";
import { type Job, jobOrder, type WorkflowCall } from "../workflow.js";
import { needsEntry } from "./needs.js";
import { decidedByUnknown, notRan } from "./not-ran.js";
import { skippedBecause } from "./run-job.js";
import { ALWAYS } from "./status.js";

/**
 * A job that calls a reusable workflow ("Reusing workflows",
 * https://docs.github.com/en/actions/how-tos/reuse-automations/reuse-workflows): one of this
 * repository runs its jobs in order, with `inputs` typed by its `workflow_call` inputs from the
 * caller's `with:` (defaults where none is given), `secrets` as the caller passes them (`inherit`:
 * every one), and its `outputs` for the jobs that need the caller. Its jobs are named as GitHub
 * shows them, "caller / job". Another repository's is listed as not rehearsed, naming it.
 */
export async function rehearseCall<R extends StepResult>(
  options: RehearsalOptions<R>,
  job: Job,
  calls: WorkflowCall,
  scope: Scope,
  unmet: readonly string[],
  findings: readonly string[],
  /** Rehearses each of the called workflow's jobs, as the caller's are. */
  rehearseJob: (
    options: RehearsalOptions<R>,
    id: string,
    done: ReadonlyMap<string, readonly JobRecord<R>[]>,
  ) => Promise<JobRecord<R>[]>,
): Promise<JobRecord<R>[]> {
  const title = job.name !== undefined ? tokenText(job.name, scope) : job.id;
  const named = { id: job.id, job: title };
  /** The call's one record where its jobs are not rehearsed: skipped, not fetched, or refused. */
  const notRun = (result: JobResult, reason: string, more: Partial<JobRecord<R>> = {}) => [
    notRan<R>(named, findings, result, reason, more),
  ];
  const unknown = (what: string, error: UnknownValue) => [decidedByUnknown<R>(named, findings, what, error)];
  let runs: boolean;
  try {
    runs = condition(job.if, scope);
  } catch (error) {
    if (error instanceof UnknownValue) return unknown("if:", error);
    throw error;
  }
  if (!runs) return notRun("skipped", skippedBecause(job.if, unmet));
  const called = calls.workflow;
  if (called === undefined)
    return notRun(
      "success",
      `it calls ${calls.ref}, a reusable workflow of another repository, which the rehearsal does not fetch`,
      { notRehearsed: true },
    );
  let inputs: Record<string, unknown>;
  let secrets: Record<string, string> | undefined;
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
    secrets =
      calls.secrets !== undefined && isString(calls.secrets) && calls.secrets.value === "inherit"
        ? options.secrets
        : mappingText(calls.secrets, scope);
  } catch (error) {
    if (error instanceof UnknownValue) return unknown("with: or secrets:", error);
    const reason = (error as Error).message;
    return notRun("failure", reason, { findings: [...findings, `job ${job.id}: ${reason}`] });
  }
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
      ...named,
      steps: [],
      findings: [...findings, ...extra],
      ran: true,
      result: failed ? "failure" : "success",
      success: !failed && extra.length === 0 && records.every((r) => r.success),
      outputs,
    },
  ];
}
