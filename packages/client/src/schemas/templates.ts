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

export const templateRun = z.looseObject({
  id: z.string(),
  templateId: z.string(),
  name: z.string(),
  description: z.string().optional(),
  apiVersion: z.string(),
  options: z
    .looseObject({ autorun: z.boolean().optional(), concurrencyPolicy: z.string().optional() })
    .optional(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  gitops: z.looseObject({
    vcsService: z.string(),
    selfHostedVcsId: z.string().optional(),
    accountLogin: z.string().optional(),
    vcsLinkId: z.string().optional(),
    repoUrl: z.string(),
    branch: z.string(),
    filePath: z.string(),
  }),
  $schema: z.string().optional(),
  /** An action node; its full shapes are not documented, so only the example members are typed. */
  spec: z.looseObject({
    kind: z.string().optional(),
    settings: z.looseObject({}).optional(),
    response: z.looseObject({ status: z.string().optional() }).optional(),
  }),
  status: openEnum(TEMPLATE_RUN_STATUSES),
  concluded: z.boolean(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export type TemplateRun = z.infer<typeof templateRun>;
export const templateRunResponse = z.looseObject({ data: templateRun });
export const templateRunListResponse = listEnvelope("templateRuns", templateRun);

export const templateRunListQuery = z.strictObject({
  per_page: z.number().int().min(1).max(100).optional(),
  page: z.number().int().min(1).optional(),
  cursor: z.string().min(1).optional(),
  status: z.enum(TEMPLATE_RUN_STATUSES).optional(),
  concluded: z.boolean().optional(),
});
export type TemplateRunListQuery = z.input<typeof templateRunListQuery>;
