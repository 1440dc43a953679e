import { z } from "zod";
import { listEnvelope, openEnum, timestamp } from "./shared.js";

// Spec 2.5, 3.4, 4.8, and the template-run reads of beyond-the-seed §1.

export const TEMPLATE_RUN_STATUSES = [
  "pending",
  "running",
  "success",
  "failure",
  "aborted",
  "aborting",
  "queued",
  "unknown",
  "skipped",
  "waiting",
  "retrying",
  "async_wait",
  "approval_wait",
] as const;

export const runTemplateBody = z.strictObject({ arguments: z.record(z.string(), z.unknown()) });
export type RunTemplateBody = z.input<typeof runTemplateBody>;

/**
 * A template run as its own read (and the start and the abort) answers it. What a waiter reads is
 * checked: `id`, `status` and `concluded`. The rest is typed for callers but never required: a
 * template not synced to Git has no `gitops`, and the action node's shapes are not documented.
 */
export const templateRun = z.looseObject({
  id: z.string(),
  status: openEnum(TEMPLATE_RUN_STATUSES),
  concluded: z.boolean(),
  /** Why a run ended as it did, where the platform says (as a build's `message`). */
  message: z.string().nullish(),
  templateId: z.string().nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  apiVersion: z.string().nullish(),
  options: z
    .looseObject({ autorun: z.boolean().nullish(), concurrencyPolicy: z.string().nullish() })
    .nullish(),
  arguments: z.record(z.string(), z.unknown()).nullish(),
  gitops: z
    .looseObject({
      vcsService: z.string().nullish(),
      selfHostedVcsId: z.string().nullish(),
      accountLogin: z.string().nullish(),
      vcsLinkId: z.string().nullish(),
      repoUrl: z.string().nullish(),
      branch: z.string().nullish(),
      filePath: z.string().nullish(),
    })
    .nullish(),
  $schema: z.string().nullish(),
  spec: z
    .looseObject({
      kind: z.string().nullish(),
      settings: z.looseObject({}).nullish(),
      response: z.looseObject({ status: z.string().nullish() }).nullish(),
    })
    .nullish(),
  createdAt: timestamp().nullish(),
  updatedAt: timestamp().nullish(),
});
export type TemplateRun = z.infer<typeof templateRun>;
export const templateRunResponse = z.looseObject({ data: templateRun });

/**
 * A template run as the runs list carries it: a summary, less than the run's own read. Only its
 * `id` and `status` are required; `concluded` and the times when it has them.
 */
export const templateRunSummary = z.looseObject({
  id: z.string(),
  status: openEnum(TEMPLATE_RUN_STATUSES),
  concluded: z.boolean().nullish(),
  createdAt: timestamp().nullish(),
  updatedAt: timestamp().nullish(),
});
export type TemplateRunSummary = z.infer<typeof templateRunSummary>;
export const templateRunListResponse = listEnvelope("templateRuns", templateRunSummary);

export const templateRunListQuery = z.strictObject({
  per_page: z.number().int().min(1).max(100).optional(),
  page: z.number().int().min(1).optional(),
  cursor: z.string().min(1).optional(),
  status: z.enum(TEMPLATE_RUN_STATUSES).optional(),
  concluded: z.boolean().optional(),
});
export type TemplateRunListQuery = z.input<typeof templateRunListQuery>;
