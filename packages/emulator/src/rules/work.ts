import { z } from "zod";
import {
  absolutePathField,
  boolParam,
  COMMIT_SHA,
  cursorList,
  encodedFileField,
  filesField,
  ID,
  idField,
  refField,
  textParam,
  variablesField,
} from "./shared.js";

// Requests that start or steer work: builds (4.5), job runs (2.4, 4.4), template runs (2.5, 4.8),
// addon upgrades and restores (4.6), restarts (4.5), read from the spec.

const commitSha = () => z.string().regex(COMMIT_SHA, "must be a 40-character commit SHA");

const buildOverrides = z.strictObject({
  buildArguments: variablesField().optional(),
  buildFiles: filesField().optional(),
  dockerSecretMounts: z.record(z.string(), encodedFileField()).optional(),
  docker: z
    .strictObject({
      dockerFilePath: absolutePathField().optional(),
      dockerWorkDir: absolutePathField().optional(),
      dockerfileTarget: z
        .string()
        .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, - and _ only")
        .optional(),
      dockerfileContents: z.string().min(1).optional(),
    })
    .optional(),
});

/**
 * 4.5, both variants in one: a bundle build (`bundleUrl`) takes no pull request; a git build
 * never names both a branch and a pull request. Whether a branch or pull request is required
 * depends on the service's kind, which the route knows (`needsGitRef`).
 */
export const startBuildBody = z
  .strictObject({
    bundleUrl: z.string().min(1).optional(),
    sha: commitSha().optional(),
    branch: z.string().min(1).optional(),
    pullRequestId: z
      .union([z.string().regex(/^\d+$/), z.number().int().nonnegative()], {
        error: "must be a pull request number: digits or an integer",
      })
      .optional(),
    overrides: buildOverrides.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.pullRequestId === undefined) return;
    if (b.bundleUrl !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["pullRequestId"],
        message: "a bundle build takes no pull request",
      });
    else if (b.branch !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["pullRequestId"],
        message: "give branch or pullRequestId, not both",
      });
  });
export type StartBuildBody = z.output<typeof startBuildBody>;

/** beyond-the-seed §5: services of kind `build` build a git ref, so they need one of these. */
export const needsGitRef = (body: StartBuildBody, kind: string) =>
  kind === "build" &&
  body.bundleUrl === undefined &&
  body.branch === undefined &&
  body.pullRequestId === undefined;

// 2.4: `deployment`.
const DOCKER_CONFIG = [
  "default",
  "customEntrypoint",
  "customCommand",
  "customEntrypointCustomCommand",
] as const;
const BUILDPACK_CONFIG = [
  "default",
  "customProcess",
  "customCommand",
  "customEntrypointCustomCommand",
  "originalEntrypointCustomCommand",
] as const;

/** The members a config type requires, as the spec's table lists them. */
function requireFor<T extends Record<string, unknown>>(
  value: T,
  ctx: z.RefinementCtx,
  rules: Array<[field: keyof T & string, configTypes: readonly string[]]>,
) {
  for (const [field, types] of rules)
    if (types.includes(value.configType as string) && value[field] === undefined)
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `required when configType is ${value.configType}`,
      });
}

const dockerConfig = z
  .strictObject({
    configType: z.enum(DOCKER_CONFIG),
    customEntrypoint: z.string().optional(),
    customCommand: z.string().optional(),
  })
  .superRefine((d, ctx) =>
    requireFor(d, ctx, [
      ["customEntrypoint", ["customEntrypoint", "customEntrypointCustomCommand"]],
      ["customCommand", ["customCommand", "customEntrypointCustomCommand"]],
    ]),
  );

const buildpackConfig = z
  .strictObject({
    configType: z.enum(BUILDPACK_CONFIG),
    customProcess: z.string().optional(),
    customEntrypoint: z.string().optional(),
    customCommand: z.string().optional(),
  })
  .superRefine((b, ctx) =>
    requireFor(b, ctx, [
      ["customProcess", ["customProcess"]],
      ["customEntrypoint", ["customEntrypointCustomCommand"]],
      [
        "customCommand",
        ["customCommand", "customEntrypointCustomCommand", "originalEntrypointCustomCommand"],
      ],
    ]),
  );

/** 2.4 variant A `internal.id`: a build service here (3-54 characters), or `project-id/service-id`. */
const BUILD_SERVICE = /^[a-zA-Z](-?[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*)?$/;
const buildServiceId = () =>
  z.string().refine((value) => {
    const parts = value.split("/");
    if (parts.length > 2) return false;
    const service = parts.at(-1) ?? "";
    const projectOk = parts.length === 1 || ID.test(parts[0] ?? "");
    return projectOk && service.length >= 3 && service.length <= 54 && BUILD_SERVICE.test(service);
  }, "must be a build service id (3-54 characters, starting with a letter) or project-id/build-service-id");

/** 2.4 variant B `external.imagePath`: [registry-host[:port]/]name[/name...] then :tag or @digest. */
const IMAGE =
  /^(?:[A-Za-z0-9.-]+(?::\d+)?\/)?[a-z0-9]+(?:[._-]+[a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-]+[a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}|@[a-z0-9]+(?:[+._-][a-z0-9]+)*:[0-9a-fA-F]{32,})$/;

const deployment = z
  .strictObject({
    internal: z
      .strictObject({
        id: buildServiceId(),
        branch: z.string().optional(),
        buildSHA: z
          .union([commitSha(), z.literal("latest")], { error: "a 40-character SHA or latest" })
          .optional(),
        buildId: z.string().optional(),
      })
      .optional(),
    external: z
      .strictObject({
        imagePath: z.string().regex(IMAGE, "must be an image reference with a tag or digest"),
        credentials: refField().optional(),
      })
      .optional(),
    docker: dockerConfig.optional(),
    buildpack: buildpackConfig.optional(),
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
            gpuType: z.string(),
            gpuCount: z.number().int().optional(),
            timesliced: z.boolean().optional(),
          })
          .optional(),
      })
      .optional(),
  })
  .superRefine((d, ctx) => {
    // oneOf: exactly one variant.
    if ((d.internal === undefined) === (d.external === undefined))
      ctx.addIssue({
        code: "custom",
        path: [d.internal === undefined ? "internal" : "external"],
        message: "exactly one of internal or external",
      });
  });

export const runJobBody = z.strictObject({
  runtimeEnvironment: variablesField().optional(),
  runtimeFiles: filesField().optional(),
  billing: z.strictObject({ deploymentPlan: idField() }).optional(),
  deployment: deployment.optional(),
});
export type RunJobBody = z.output<typeof runJobBody>;

export const resumeJobBody = z.strictObject({
  suspended: z.boolean().optional(),
  disabledCI: z.boolean().optional(),
  disabledCD: z.boolean().optional(),
});

export const setRuntimeEnvironmentBody = z.strictObject({
  runtimeEnvironment: variablesField(),
  runtimeFiles: filesField().optional(),
});

/** 4.8: `arguments` is an object, possibly empty. */
export const runTemplateBody = z.strictObject({ arguments: z.record(z.string(), z.unknown()) });

/** 3.4. */
export const TEMPLATE_RUN_STATUS = [
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
export const templateRunListQuery = z.strictObject({
  ...cursorList,
  status: z.enum(TEMPLATE_RUN_STATUS).optional(),
  concluded: boolParam().optional(),
});

export const upgradeAddonBody = z.strictObject({ version: z.string().min(1) });
export const restoreBackupQuery = z.strictObject({
  sourceProjectId: textParam().optional(),
  sourceAddonId: textParam().optional(),
});
export const restartHarnessQuery = z.strictObject({ acknowledgeActiveSessions: boolParam().optional() });
export const buildArgumentsQuery = z.strictObject({
  show: z.enum(["this", "inherited", "all"]).optional(),
  replaceTemplatedValues: boolParam().optional(),
});
