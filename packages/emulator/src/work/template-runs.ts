import { shortIdFor } from "../ids.js";
import type { Outcome } from "../model/outcome.js";
import { Timeline } from "../model/timeline.js";
import type { TemplateRunRecord, TemplateRunState } from "../model/work-records.js";
import type { Template, World } from "../model/world.js";
import { durationMs } from "./outcomes.js";

// Template runs: pending → running → success | failure; an abort passes through `aborting` to
// `aborted`. `concluded` is true once the run has ended (spec 2.5, 3.4).

const DEFAULT_SECONDS = 40;
const ABORTING_MS = 2000;

export function startTemplateRun(
  world: World,
  template: Template,
  args: Record<string, unknown>,
  now: number,
  outcome: Outcome,
  /** Why it fails, when it fails for a reason of its own. */
  failure?: string,
): TemplateRunRecord {
  const id =
    outcome.id ?? shortIdFor("tr-", world.seed, `template-run:${world.templateRuns.length}:${template.id}`);
  const end = now + durationMs(outcome, DEFAULT_SECONDS);
  const succeed = outcome.succeed ?? (outcome.status === undefined || outcome.status === "success");
  const at = (fraction: number) => now + (end - now) * fraction;
  const record: TemplateRunRecord = {
    templateId: template.id,
    id,
    arguments: args,
    createdAt: now,
    timeline: new Timeline<TemplateRunState>([
      { at: now, state: { status: "pending", concluded: false }, event: "trigger:template-run:queued" },
      { at: at(0.1), state: { status: "running", concluded: false }, event: "trigger:template-run:start" },
      { at: at(0.5), state: { status: "running", concluded: false }, event: "trigger:template-run:update" },
      {
        at: end,
        state: {
          status: outcome.status ?? (succeed ? "success" : "failure"),
          concluded: true,
          // Why it failed: the template's own reason (an argument it reads, missing), or the one
          // the control plane scripted.
          ...((failure ?? outcome.message) !== undefined ? { message: failure ?? outcome.message } : {}),
        },
        event: succeed ? "trigger:template-run:success" : "trigger:template-run:failure",
      },
    ]),
  };
  world.templateRuns.push(record);
  return record;
}

export function abortTemplateRun(record: TemplateRunRecord, now: number): boolean {
  if (record.timeline.at(now).concluded) return false;
  record.timeline.rewrite(now, [
    { at: now, state: { status: "aborting", concluded: false } },
    { at: now + ABORTING_MS, state: { status: "aborted", concluded: true } },
  ]);
  return true;
}

export function templateRunView(record: TemplateRunRecord, template: Template, now: number) {
  const step = record.timeline.stepAt(now);
  const started = record.timeline.steps[1]?.at ?? record.createdAt;
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    $schema: "https://schemas.cwp.example/template/v1.2.json",
    id: record.id,
    templateId: record.templateId,
    name: template.name,
    description: template.description,
    apiVersion: "v1.2",
    options: { autorun: false, concurrencyPolicy: "allow" },
    arguments: record.arguments,
    gitops: { vcsService: "github", repoUrl: template.repoUrl, branch: "main", filePath: template.filePath },
    spec: {
      kind: "Workflow",
      settings: { maxAttempts: 1, backoff: { type: "fixed", delay: 10 } },
      response: {
        status: step.state.status,
        retries: { attempts: 0, maxAttempts: 1, timestamp: iso(record.createdAt) },
        ...(now >= started ? { startTime: iso(started) } : {}),
        ...(step.state.concluded ? { endTime: iso(step.at) } : {}),
      },
    },
    ...step.state,
    createdAt: iso(record.createdAt),
    updatedAt: iso(step.at),
  };
}
