import {
  ADDON_FAILED_STATUSES,
  type Addon,
  type Backup,
  RESTORE_FINAL_STATUSES,
  type Restore,
} from "../schemas/addons.js";
import type { Build, Service } from "../schemas/builds.js";
import type { JobRun } from "../schemas/jobs.js";
import type { TemplateRun } from "../schemas/templates.js";
import { parseTimestamp } from "../timestamps.js";

/**
 * Where a piece of remote work stands. `concluded` comes from what the platform says (its
 * `concluded` flag, or the rules of beyond-the-seed §1), never from a closed list of statuses, so a
 * status added later keeps a waiter waiting instead of ending it.
 */
export interface Conclusion {
  status: string;
  concluded: boolean;
  success: boolean;
}

export function buildConclusion(build: Build): Conclusion {
  const status = build.status ?? "UNKNOWN";
  return {
    status,
    concluded: build.concluded === true,
    success: build.success === true || status === "SUCCESS",
  };
}

export function jobRunConclusion(run: JobRun): Conclusion {
  return { status: run.status, concluded: run.concluded, success: run.status === "SUCCESS" };
}

export function templateRunConclusion(run: TemplateRun): Conclusion {
  return { status: run.status, concluded: run.concluded, success: run.status === "success" };
}

/** An upgrade ends when the addon runs at the target version, or reports a failure status. */
export function addonUpgradeConclusion(addon: Addon, targetVersion: string): Conclusion {
  const version = addon.spec.config?.versionTag;
  const done = addon.status === "running" && version === targetVersion;
  const failed = ADDON_FAILED_STATUSES.includes(addon.status);
  return { status: addon.status, concluded: done || failed, success: done };
}

export function restoreConclusion(
  restore: Pick<Restore, "status"> | NonNullable<Backup["lastRestore"]>,
): Conclusion {
  return {
    status: restore.status,
    concluded: RESTORE_FINAL_STATUSES.includes(restore.status),
    success: restore.status === "completed",
  };
}

/**
 * A restart has finished when the deployment reports COMPLETED with a transition later than the
 * restart; a COMPLETED from before the restart is the old rollout. FAILED after it fails it.
 */
export function restartConclusion(service: Service, restartedAt: number): Conclusion {
  const deployment = service.status?.deployment;
  const status = deployment?.status ?? "UNKNOWN";
  const transition = parseTimestamp(deployment?.lastTransitionTime);
  const after = transition !== undefined && transition >= restartedAt;
  const concluded = after && (status === "COMPLETED" || status === "FAILED");
  return { status, concluded, success: concluded && status === "COMPLETED" };
}
