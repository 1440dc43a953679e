import { z } from "zod";
import { fileMap, id, listEnvelope, openEnum, ref, sha, timestamp, variableKey } from "./shared.js";

// Spec 2.4, 2.8 (health checks), 4.4, and the job-run reads of beyond-the-seed §1.

const BUILD_SERVICE_ID = /^[a-zA-Z](-?[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*)?$/;
const PROJECT_ID = /^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$/;
/** [registry-host[:port]/]path[/path...] followed by :tag or @algorithm:digest. */
const IMAGE_REFERENCE =
  /^(?:[a-zA-Z0-9.-]+(?::[0-9]+)?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[\w][\w.-]{0,127}|@[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-fA-F0-9]{32,})$/;

/** A build service in this project, or `project-id/build-service-id` for another project. */
const buildServiceRef = () =>
  z.string().refine(
    (value) => {
      const [first, second, ...rest] = value.split("/");
      const service = second ?? first ?? "";
      if (rest.length > 0 || (second !== undefined && !PROJECT_ID.test(first ?? ""))) return false;
      return service.length >= 3 && service.length <= 54 && BUILD_SERVICE_ID.test(service);
    },
    {
      message:
        "must be a build service id (3-54 characters, starting with a letter) or project-id/build-service-id",
    },
  );

export const DOCKER_CONFIG_TYPES = [
  "default",
  "customEntrypoint",
  "customCommand",
  "customEntrypointCustomCommand",
] as const;
export const BUILDPACK_CONFIG_TYPES = [
  "default",
  "customProcess",
  "customCommand",
  "customEntrypointCustomCommand",
  "originalEntrypointCustomCommand",
] as const;

const docker = z
  .strictObject({
    configType: z.enum(DOCKER_CONFIG_TYPES),
    customEntrypoint: z.string().optional(),
    customCommand: z.string().optional(),
  })
  .superRefine((d, ctx) => {
    if (d.configType.includes("Entrypoint") && d.customEntrypoint === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["customEntrypoint"],
        message: `required when configType is ${d.configType}`,
      });
    }
    if (d.configType.includes("Command") && d.customCommand === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["customCommand"],
        message: `required when configType is ${d.configType}`,
      });
    }
  });

const buildpack = z
  .strictObject({
    configType: z.enum(BUILDPACK_CONFIG_TYPES),
    customProcess: z.string().optional(),
    customEntrypoint: z.string().optional(),
    customCommand: z.string().optional(),
  })
  .superRefine((b, ctx) => {
    const required: Array<[keyof typeof b, boolean]> = [
      ["customProcess", b.configType === "customProcess"],
      ["customEntrypoint", b.configType === "customEntrypointCustomCommand"],
      ["customCommand", b.configType.endsWith("CustomCommand") || b.configType === "customCommand"],
    ];
    for (const [field, needed] of required) {
      if (needed && b[field] === undefined) {
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `required when configType is ${b.configType}`,
        });
      }
    }
  });

/** The `deployment` oneOf: exactly one of `internal` (a built commit) or `external` (an image). */
export const jobDeployment = z
  .strictObject({
    internal: z
      .strictObject({
        id: buildServiceRef(),
        branch: z.string().min(1).optional(),
        buildSHA: z
          .union([sha(), z.literal("latest")], { error: "must be a 40-character commit SHA or latest" })
          .optional(),
        buildId: z.string().min(1).optional(),
      })
      .optional(),
    external: z
      .strictObject({
        imagePath: z
          .string()
          .regex(
            IMAGE_REFERENCE,
            "must be an image reference such as registry.example.com/team/app:1.2 or app@sha256:<digest>",
          ),
        credentials: ref().optional(),
      })
      .optional(),
    docker: docker.optional(),
    buildpack: buildpack.optional(),
    storage: z
      .strictObject({
        useHdbStorage: z.boolean().optional(),
        usePdSsdStorage: z.boolean().optional(),
        ephemeralStorage: z.strictObject({ storageSize: z.number().int().min(1024) }).optional(),
        shmSize: z.number().int().min(64).optional(),
      })
      .optional(),
    gpu: z
      .strictObject({
        enabled: z.boolean().optional(),
        configuration: z
          .strictObject({
            gpuType: z.string().min(1),
            gpuCount: z.number().int().min(1).optional(),
            timesliced: z.boolean().optional(),
          })
          .optional(),
      })
      .optional(),
  })
  .superRefine((d, ctx) => {
    if ((d.internal === undefined) === (d.external === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: d.internal ? ["external"] : ["internal"],
        message: "give exactly one of internal (a built commit) or external (an image)",
      });
    }
  });

export const runJobBody = z.strictObject({
  runtimeEnvironment: z.record(variableKey(), z.string()).optional(),
  runtimeFiles: fileMap().optional(),
  billing: z.strictObject({ deploymentPlan: id() }).optional(),
  deployment: jobDeployment.optional(),
});
export type RunJobBody = z.input<typeof runJobBody>;

export const runJobResponse = z.looseObject({
  data: z.looseObject({ id: z.string(), runName: z.string().nullish() }),
});
export type StartedJobRun = z.infer<typeof runJobResponse>["data"];

export const JOB_RUN_STATUSES = ["RUNNING", "SUCCESS", "FAILED"] as const;
export const jobRun = z.looseObject({
  id: z.string(),
  runName: z.string().nullish(),
  status: openEnum(JOB_RUN_STATUSES),
  concluded: z.boolean(),
  startedAt: timestamp().nullish(),
  concludedAt: timestamp().nullish(),
  active: z.number().nullish(),
  succeeded: z.number().nullish(),
  failed: z.number().nullish(),
  backoffLimit: z.number().nullish(),
  completions: z.number().nullish(),
});
export type JobRun = z.infer<typeof jobRun>;
export const jobRunResponse = z.looseObject({ data: jobRun });
export const jobRunListResponse = listEnvelope("runs", jobRun);

export const resumeJobBody = z.strictObject({
  suspended: z.boolean().optional(),
  disabledCI: z.boolean().optional(),
  disabledCD: z.boolean().optional(),
});
export type ResumeJobBody = z.input<typeof resumeJobBody>;

export const setRuntimeEnvironmentBody = z.strictObject({
  runtimeEnvironment: z.record(variableKey(), z.string()),
  runtimeFiles: fileMap().optional(),
});
export type SetRuntimeEnvironmentBody = z.input<typeof setRuntimeEnvironmentBody>;

export const healthCheck = z.looseObject({
  protocol: openEnum(["HTTP", "CMD", "TCP"]).nullish(),
  type: openEnum(["livenessProbe", "readinessProbe"]).nullish(),
  path: z.string().nullish(),
  cmd: z.unknown().nullish(),
  httpPort: z.number().nullish(),
  tcpSocketPort: z.number().nullish(),
  initialDelaySeconds: z.number().nullish(),
  periodSeconds: z.number().nullish(),
  timeoutSeconds: z.number().nullish(),
  failureThreshold: z.number().nullish(),
  successThreshold: z.number().nullish(),
});
export const healthChecksResponse = z.looseObject({
  data: z.looseObject({ healthChecks: z.array(healthCheck) }),
});
