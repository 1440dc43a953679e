import { z } from "zod";
import { listEnvelope, openEnum, timestamp } from "./shared.js";

// Spec 2.8 (addon, backup), 3.2, 3.3, 4.6, and the restores list of beyond-the-seed §1.

export const ADDON_STATUSES = [
  "preDeployment",
  "triggerAllocation",
  "allocating",
  "postDeployment",
  "running",
  "paused",
  "scaling",
  "upgrading",
  "resetting",
  "backup",
  "restore",
  "failed",
  "error",
  "errorAllocating",
  "deleting",
  "deleted",
] as const;
export const ADDON_FAILED_STATUSES: readonly string[] = ["failed", "error", "errorAllocating"];

export const BACKUP_STATUSES = [
  "scheduled",
  "in-progress",
  "completed",
  "aborting",
  "aborted",
  "failed",
  "not-supported",
] as const;
/** What a wait shows for a restore its backup's list does not show yet (see `waitForRestore`). */
export const RESTORE_NOT_LISTED = "not listed yet";
/** Restore statuses that end a restore; only `completed` is a success. */
export const RESTORE_FINAL_STATUSES: readonly string[] = ["completed", "failed", "aborted", "not-supported"];

export const addon = z.looseObject({
  id: z.string(),
  uid: z.string().nullish(),
  name: z.string().nullish(),
  appId: z.string().nullish(),
  stageId: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  description: z.string().nullish(),
  createdAt: timestamp().nullish(),
  status: openEnum(ADDON_STATUSES),
  spec: z
    .looseObject({
      type: z.string().nullish(),
      config: z.looseObject({ versionTag: z.string().nullish() }).nullish(),
      pendingActions: z
        .array(z.looseObject({ type: z.string().nullish(), createdAt: timestamp().nullish() }))
        .nullish(),
    })
    .nullish(),
  cluster: z
    .looseObject({
      id: z.string().nullish(),
      name: z.string().nullish(),
      namespace: z.string().nullish(),
      loadBalancers: z.array(z.string()).nullish(),
    })
    .nullish(),
});
export type Addon = z.infer<typeof addon>;
export const addonResponse = z.looseObject({ data: addon });

const restoreStatus = openEnum(BACKUP_STATUSES);

export const backup = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  uid: z.string().nullish(),
  status: openEnum(BACKUP_STATUSES),
  createdAt: timestamp().nullish(),
  completedAt: timestamp().nullish(),
  config: z
    .looseObject({
      source: z
        .looseObject({
          type: openEnum(["fileUpload", "liveInstance", "snapshot", "externalDump", "sameAddon"]).nullish(),
        })
        .nullish(),
      /** Size in bytes, as a string. */
      size: z.string().nullish(),
      /** For snapshot backups, the version the addon is restored to. */
      addonVersion: z.string().nullish(),
    })
    .nullish(),
  lastRestore: z
    .looseObject({
      restoreTimestamp: timestamp().nullish(),
      status: restoreStatus,
      completedAt: timestamp().nullish(),
    })
    .nullish(),
});
export type Backup = z.infer<typeof backup>;
export const backupResponse = z.looseObject({ data: backup });

export const restoreBackupQuery = z.strictObject({
  sourceProjectId: z.string().min(1).optional(),
  sourceAddonId: z.string().min(1).optional(),
});
export type RestoreBackupQuery = z.input<typeof restoreBackupQuery>;
export const restoreBackupResponse = z.looseObject({ data: z.looseObject({ restoreId: z.string() }) });

export const restore = z.looseObject({
  id: z.string(),
  status: restoreStatus,
  restoreTimestamp: timestamp().nullish(),
  completedAt: timestamp().nullish(),
});
export type Restore = z.infer<typeof restore>;
export const restoreListResponse = listEnvelope("restores", restore);

export const upgradeAddonBody = z.strictObject({ version: z.string().min(1) });
export type UpgradeAddonBody = z.input<typeof upgradeAddonBody>;
