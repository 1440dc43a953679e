import { uuidFor } from "../ids.js";
import type { Outcome } from "../model/outcome.js";
import { Timeline } from "../model/timeline.js";
import type { JobRunRecord, JobRunState } from "../model/work-records.js";
import type { Job, World } from "../model/world.js";
import type { RunJobBody } from "../rules/work.js";
import { cutAt, spread } from "./log-lines.js";
import { durationMs } from "./outcomes.js";

// Job runs are RUNNING, then SUCCESS or FAILED; an aborted run ends FAILED (beyond-the-seed §1).

const DEFAULT_SECONDS = 30;

export function startJobRun(
  world: World,
  job: Job,
  body: RunJobBody,
  now: number,
  outcome: Outcome,
): JobRunRecord {
  const n = world.jobRuns.length;
  const id = outcome.id ?? uuidFor(world.seed, `run:${n}:${job.projectId}/${job.id}`);
  const end = now + durationMs(outcome, DEFAULT_SECONDS);
  const succeed = outcome.succeed ?? (outcome.status === undefined || outcome.status === "SUCCESS");
  const runName = `${job.id}-${id.slice(0, 8)}`;
  const container = `${runName}-pod`;
  // Names of the variables only: values may be secrets and never reach a log.
  const variables = Object.keys({ ...job.runtimeEnvironment, ...body.runtimeEnvironment }).sort();
  const lines = outcome.logLines ?? [
    `Starting ${job.id} (${runName})`,
    `Environment: ${variables.join(", ") || "(none)"}`,
    ...Array.from({ length: 8 }, (_, i) => `Processed batch ${i + 1}/8`),
    succeed ? "Done" : "Error: batch 8 failed: connection refused",
  ];
  const record: JobRunRecord = {
    projectId: job.projectId,
    jobId: job.id,
    id,
    runName,
    startedAt: now,
    request: body,
    timeline: new Timeline<JobRunState>([
      { at: now, state: { status: "RUNNING", concluded: false }, event: "trigger:job-run:start" },
      {
        at: end,
        state: { status: outcome.status ?? (succeed ? "SUCCESS" : "FAILED"), concluded: true },
        event: succeed ? "trigger:job-run:success" : "trigger:job-run:failure",
      },
    ]),
    logs: spread(lines, now + 500, end - 1, container, outcome.linesPerInstant),
  };
  world.jobRuns.push(record);
  return record;
}

export function abortJobRun(record: JobRunRecord, now: number): boolean {
  if (record.timeline.at(now).concluded) return false;
  record.timeline.rewrite(now, [
    { at: now, state: { status: "FAILED", concluded: true }, event: "trigger:job-run:abort" },
  ]);
  record.logs = cutAt(record.logs, now, "Terminated: run aborted", `${record.runName}-pod`);
  return true;
}

export function jobRunView(record: JobRunRecord, now: number) {
  const step = record.timeline.stepAt(now);
  const { status, concluded } = step.state;
  return {
    id: record.id,
    runName: record.runName,
    status,
    concluded,
    startedAt: new Date(record.startedAt).toISOString(),
    concludedAt: concluded ? new Date(step.at).toISOString() : null,
    active: concluded ? 0 : 1,
    succeeded: status === "SUCCESS" ? 1 : 0,
    failed: concluded && status !== "SUCCESS" ? 1 : 0,
    backoffLimit: 0,
    completions: 1,
  };
}
