import { z } from "zod";
import { refField, shortNameField, tagField } from "./shared.js";

// Notification integrations (spec 2.10, section 6) and subdomain paths (2.7), read from the spec.

const each = (prefix: string, names: readonly string[]) => names.map((n) => `${prefix}:${n}`);

/** Section 6, every event key as the spec lists it. */
export const EVENT_KEYS = new Set([
  "trigger:service:autoscaling:event",
  "trigger:service:deployment:status-update",
  "trigger:harness:autoscaling:event",
  "trigger:harness:deployment:status-update",
  "trigger:project:tailscale-regen-failure",
  ...each("trigger:addon-backup", ["start", "success", "failure", "abort"]),
  ...each("trigger:build", ["start", "success", "failure", "abort"]),
  ...each("trigger:job-run", ["start", "success", "failure", "abort", "terminate"]),
  ...each("trigger:release-flow-template-run", ["start", "update", "success", "failure", "aborted"]),
  ...each("trigger:template-run", ["queued", "start", "update", "success", "failure"]),
  ...each("trigger:resource", ["certificate-success", "certificate-final-failure"]),
  ...each("trigger:cdn", ["action-success", "action-failure", "action-delay"]),
  "trigger:log-sink:paused",
  ...each("trigger:billing", [
    "billing-alert-exceeded",
    "invoice-payment-action-required",
    "invoice-payment-failed",
    "invoice-paid",
    "invoice-carried-over",
  ]),
  ...each("trigger:infrastructure:service", ["container-crash", "container-eviction"]),
  "trigger:infrastructure:build:container-eviction",
  ...each("trigger:infrastructure:addon", ["container-crash", "container-eviction"]),
  ...each("trigger:infrastructure:job", ["container-crash", "container-eviction"]),
  ...["build", "service", "job", "addon"].flatMap((kind) =>
    each(`trigger:infrastructure:${kind}`, ["container-cpuSpike90", "container-cpuSustained90"]),
  ),
  ...["build", "service", "job"].flatMap((kind) =>
    each(`trigger:infrastructure:${kind}`, ["container-memorySpike90", "container-memorySustained90"]),
  ),
  ...each("trigger:infrastructure:addon-volume", [
    "usage-75-exceeded",
    "usage-90-exceeded",
    "disk-autoresize-triggered",
  ]),
  ...each("trigger:infrastructure:platform-volume", ["usage-75-exceeded", "usage-90-exceeded"]),
  ...each("trigger:infrastructure:byoc", [
    "cluster:error",
    "node-pool:error",
    "scheduling:error",
    "volume:error",
    "volume:attach",
  ]),
]);

export const createNotificationBody = z
  .strictObject({
    name: shortNameField(),
    type: z.enum(["RAW_WEBHOOK", "DISCORD", "TEAMS", "TEAMS_WORKFLOWS"]),
    webhook: z.url({ error: "must be a URL" }),
    secret: z.string().optional(),
    restricted: z.boolean().optional(),
    restrictions: z
      .strictObject({
        tags: z
          .strictObject({
            enabled: z.boolean().optional(),
            items: z.array(tagField()).optional(),
            matchCondition: z.enum(["and", "or"]).optional(),
          })
          .optional(),
      })
      .optional(),
    projects: z.array(refField()).optional(),
    events: z.record(
      z.string().refine((key) => EVENT_KEYS.has(key), "not an event key of section 6"),
      z.boolean(),
    ),
  })
  .superRefine((body, ctx) => {
    if (body.secret !== undefined && body.type !== "RAW_WEBHOOK")
      ctx.addIssue({ code: "custom", path: ["secret"], message: "for RAW_WEBHOOK only" });
  });
export type CreateNotificationBody = z.output<typeof createNotificationBody>;

/** 2.7: `*`, `@`, or dot-separated lowercase labels of letters, digits and hyphens. */
export const subdomainParam = z
  .string()
  .regex(/^(?:\*|@|[a-z0-9-]+(?:\.[a-z0-9-]+)*)$/, "must be *, @ or dot-separated lowercase labels");
