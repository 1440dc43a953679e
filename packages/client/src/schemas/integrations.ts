import { z } from "zod";
import { listEnvelope, openEnum, ref, shortName, tag, timestamp } from "./shared.js";

// Spec 2.10, 2.11, 4.10 and the event keys of section 6.

const families = (prefix: string, suffixes: readonly string[]) => suffixes.map((s) => `${prefix}:${s}`);
const INFRA_KINDS_CPU = ["build", "service", "job", "addon"];
const INFRA_KINDS_MEMORY = ["build", "service", "job"];

/** Every event key of spec section 6. */
export const NOTIFICATION_EVENTS: readonly string[] = [
  "trigger:service:autoscaling:event",
  "trigger:service:deployment:status-update",
  "trigger:harness:autoscaling:event",
  "trigger:harness:deployment:status-update",
  "trigger:project:tailscale-regen-failure",
  ...families("trigger:addon-backup", ["start", "success", "failure", "abort"]),
  ...families("trigger:build", ["start", "success", "failure", "abort"]),
  ...families("trigger:job-run", ["start", "success", "failure", "abort", "terminate"]),
  ...families("trigger:release-flow-template-run", ["start", "update", "success", "failure", "aborted"]),
  ...families("trigger:template-run", ["queued", "start", "update", "success", "failure"]),
  "trigger:resource:certificate-success",
  "trigger:resource:certificate-final-failure",
  ...families("trigger:cdn", ["action-success", "action-failure", "action-delay"]),
  "trigger:log-sink:paused",
  ...families("trigger:billing", [
    "billing-alert-exceeded",
    "invoice-payment-action-required",
    "invoice-payment-failed",
    "invoice-paid",
    "invoice-carried-over",
  ]),
  ...families("trigger:infrastructure:service", ["container-crash", "container-eviction"]),
  "trigger:infrastructure:build:container-eviction",
  ...families("trigger:infrastructure:addon", ["container-crash", "container-eviction"]),
  ...families("trigger:infrastructure:job", ["container-crash", "container-eviction"]),
  ...INFRA_KINDS_CPU.flatMap((k) =>
    families(`trigger:infrastructure:${k}`, ["container-cpuSpike90", "container-cpuSustained90"]),
  ),
  ...INFRA_KINDS_MEMORY.flatMap((k) =>
    families(`trigger:infrastructure:${k}`, ["container-memorySpike90", "container-memorySustained90"]),
  ),
  ...families("trigger:infrastructure:addon-volume", [
    "usage-75-exceeded",
    "usage-90-exceeded",
    "disk-autoresize-triggered",
  ]),
  ...families("trigger:infrastructure:platform-volume", ["usage-75-exceeded", "usage-90-exceeded"]),
  ...families("trigger:infrastructure:byoc", [
    "cluster:error",
    "node-pool:error",
    "scheduling:error",
    "volume:error",
    "volume:attach",
  ]),
];
const KNOWN_EVENTS = new Set(NOTIFICATION_EVENTS);

export const NOTIFICATION_TYPES = ["RAW_WEBHOOK", "DISCORD", "TEAMS", "TEAMS_WORKFLOWS"] as const;

export const createNotificationBody = z
  .strictObject({
    name: shortName(),
    type: z.enum(NOTIFICATION_TYPES),
    webhook: z.url({ error: "must be a URL" }),
    secret: z.string().min(1).optional(),
    restricted: z.boolean().optional(),
    restrictions: z
      .strictObject({
        tags: z
          .strictObject({
            enabled: z.boolean().optional(),
            items: z.array(tag()).optional(),
            matchCondition: z.enum(["and", "or"]).optional(),
          })
          .optional(),
      })
      .optional(),
    projects: z.array(ref()).optional(),
    events: z.record(
      z
        .string()
        .refine((key) => KNOWN_EVENTS.has(key), "is not an event key of the platform (spec section 6)"),
      z.boolean(),
    ),
  })
  .superRefine((body, ctx) => {
    if (body.secret !== undefined && body.type !== "RAW_WEBHOOK") {
      ctx.addIssue({
        code: "custom",
        path: ["secret"],
        message: "only RAW_WEBHOOK integrations carry a secret",
      });
    }
  });
export type CreateNotificationBody = z.input<typeof createNotificationBody>;

export const notificationIntegration = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  type: openEnum([...NOTIFICATION_TYPES, "SLACK"]).nullish(),
  webhook: z.string().nullish(),
  createdAt: timestamp().nullish(),
  updatedAt: timestamp().nullish(),
  status: z
    .looseObject({
      disabled: z.boolean().nullish(),
      reason: z.unknown().nullish(),
      timeOfFirstFailedRequest: timestamp().nullish(),
      numberOfFailedRequests: z.number().nullish(),
    })
    .nullish(),
  restricted: z.boolean().nullish(),
  projects: z.array(z.string()).nullish(),
  events: z.record(z.string(), z.boolean()).nullish(),
});
export type NotificationIntegration = z.infer<typeof notificationIntegration>;
export const notificationIntegrationResponse = z.looseObject({ data: notificationIntegration });

export const REGISTRY_PROVIDERS = [
  "acr",
  "ecr",
  "gar",
  "dockerhub",
  "dhi",
  "github",
  "gitlab",
  "custom",
  "legacy",
] as const;
export const registryCredential = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  provider: openEnum(REGISTRY_PROVIDERS).nullish(),
  registryUrl: z.string().nullish(),
  aws: z.looseObject({ region: z.string().nullish() }).nullish(),
  gcp: z.looseObject({ projectId: z.string().nullish() }).nullish(),
  azure: z.looseObject({ resourceGroup: z.string().nullish() }).nullish(),
  integrationId: z.string().nullish(),
  credentials: z
    .looseObject({
      scope: z.looseObject({ pull: z.boolean().nullish(), push: z.boolean().nullish() }).nullish(),
    })
    .nullish(),
  registryCredentialRefresh: z
    .looseObject({
      status: openEnum(["healthy", "retrying", "suspended"]).nullish(),
      failureCount: z.number().nullish(),
      retryDelay: z.number().nullish(),
      lastFailureAt: timestamp().nullish(),
      nextAttemptAt: timestamp().nullish(),
      error: z
        .looseObject({ type: z.string(), message: z.string(), providerCode: z.unknown().nullish() })
        .nullish(),
    })
    .nullish(),
  createdAt: timestamp().nullish(),
  updatedAt: timestamp().nullish(),
});
export type RegistryCredential = z.infer<typeof registryCredential>;
export const registryCredentialListResponse = listEnvelope("credentials", registryCredential);
