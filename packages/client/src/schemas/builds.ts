import { z } from "zod";
import {
  absolutePath,
  encodedFile,
  fileMap,
  listEnvelope,
  openEnum,
  sha,
  timestamp,
  variableKey,
} from "./shared.js";

// Spec 2.6 and 4.5, and the build and service reads of beyond-the-seed §1.

export const startBuildBody = z
  .strictObject({
    bundleUrl: z.string().min(1).optional(),
    sha: sha().optional(),
    branch: z.string().min(1).optional(),
    pullRequestId: z
      .union([z.string().regex(/^\d+$/, "a string of digits"), z.number().int().min(0)], {
        error: "must be a pull request number (digits)",
      })
      .optional(),
    overrides: z
      .strictObject({
        buildArguments: z.record(variableKey(), z.string()).optional(),
        buildFiles: fileMap().optional(),
        dockerSecretMounts: z.record(z.string(), encodedFile()).optional(),
        docker: z
          .strictObject({
            dockerFilePath: absolutePath().optional(),
            dockerWorkDir: absolutePath().optional(),
            dockerfileTarget: z
              .string()
              .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, - and _ only")
              .optional(),
            dockerfileContents: z.string().min(1).optional(),
          })
          .optional(),
      })
      .optional(),
  })
  // The spec's oneOf: a bundle build names `bundleUrl` and no pull request; a git build never
  // names both a branch and a pull request. Whether it needs one of them depends on the service's
  // kind (build services do, combined services build `sha` or their latest commit: beyond-the-seed
  // §5), which only the platform knows, so that rule is the platform's to apply.
  .superRefine((b, ctx) => {
    if (b.pullRequestId === undefined) return;
    if (b.bundleUrl !== undefined) {
      ctx.addIssue({ code: "custom", path: ["pullRequestId"], message: "not allowed with bundleUrl" });
    } else if (b.branch !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["pullRequestId"],
        message: "give either branch or pullRequestId, never both",
      });
    }
  });
export type StartBuildBody = z.input<typeof startBuildBody>;

export const BUILD_STATUSES = [
  "QUEUED",
  "PENDING",
  "UNSCHEDULABLE",
  "STARTING",
  "CLONING",
  "BUILDING",
  "UPLOADING",
  "IN_PROGRESS",
  "SUCCESS",
  "FAILURE",
  "SUBMISSION_FAILURE",
  "ABORTED",
  "CRASHED",
] as const;

export const build = z.looseObject({
  id: z.string(),
  branch: z.string().nullish(),
  pullRequestId: z.union([z.string(), z.number()]).nullish(),
  sha: z.string().nullish(),
  registry: z.looseObject({ uri: z.string().nullish() }).nullish(),
  createdAt: timestamp().nullish(),
  status: openEnum(BUILD_STATUSES).nullish(),
  concluded: z.boolean().nullish(),
  success: z.boolean().nullish(),
  message: z.string().nullish(),
  /** Unix seconds, unlike most timestamps. */
  buildConcludedAt: timestamp().nullish(),
});
export type Build = z.infer<typeof build>;
export const buildResponse = z.looseObject({ data: build });
export const buildListResponse = listEnvelope("builds", build);

export const DEPLOYMENT_STATUSES = ["PENDING", "IN_PROGRESS", "COMPLETED", "FAILED"] as const;
export const service = z.looseObject({
  id: z.string(),
  uid: z.string().nullish(),
  name: z.string().nullish(),
  status: z
    .looseObject({
      build: z
        .looseObject({ status: z.string().nullish(), lastTransitionTime: timestamp().nullish() })
        .nullish(),
      deployment: z
        .looseObject({
          status: openEnum(DEPLOYMENT_STATUSES).nullish(),
          reason: openEnum(["SCALING", "DEPLOYING"]).nullish(),
          lastTransitionTime: timestamp().nullish(),
        })
        .nullish(),
    })
    .nullish(),
});
export type Service = z.infer<typeof service>;
export const serviceResponse = z.looseObject({ data: service });

export const restartHarnessQuery = z.strictObject({ acknowledgeActiveSessions: z.boolean().optional() });
export type RestartHarnessQuery = z.input<typeof restartHarnessQuery>;
