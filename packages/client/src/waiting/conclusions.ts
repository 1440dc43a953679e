import {
  ADDON_FAILED_STATUSES,
  ADDON_STATUSES,
  type Addon,
  BACKUP_STATUSES,
  type Backup,
  RESTORE_FINAL_STATUSES,
  RESTORE_NOT_LISTED,
  type Restore,
} from "../schemas/addons.js";
import { BUILD_STATUSES, type Build, DEPLOYMENT_STATUSES, type Service } from "../schemas/builds.js";
import { JOB_RUN_STATUSES, type JobRun } from "../schemas/jobs.js";
import { TEMPLATE_RUN_STATUSES, type TemplateRun } from "../schemas/templates.js";
import { parseTimestamp } from "../timestamps.js";

/**
 * Where a piece of remote work stands. `concluded` comes from what the platform says (its
 * `concluded` flag, or the rules of beyond-the-seed §1), never from a closed list of statuses, so a
 * status added later keeps a waiter waiting instead of ending it.
 */
export interface Conclusion {
  status: string;
  concluded: boolean;
  /**
   * True only for work the platform said concluded, and concluded well: a SUCCESS seen on work not
   * yet concluded (a step that timed out on it) claims nothing.
   */
  success: boolean;
  /** False for a status the spec does not list: the wait warns once and goes on (see `pollUntilConcluded`). */
  known?: boolean;
}

const knows = (statuses: readonly string[], status: string) => statuses.includes(status);

export function buildConclusion(build: Build): Conclusion {
  const status = build.status ?? "UNKNOWN";
  const concluded = build.concluded === true;
  return {
    status,
    concluded,
    success: concluded && (build.success === true || status === "SUCCESS"),
    known: build.status == null || knows(BUILD_STATUSES, status),
  };
}

export function jobRunConclusion(run: JobRun): Conclusion {
  return {
    status: run.status,
    concluded: run.concluded,
    success: run.concluded && run.status === "SUCCESS",
    known: knows(JOB_RUN_STATUSES, run.status),
  };
}

export function templateRunConclusion(run: TemplateRun): Conclusion {
  return {
    status: run.status,
    concluded: run.concluded,
    success: run.concluded && run.status === "success",
    known: knows(TEMPLATE_RUN_STATUSES, run.status),
  };
}

/** An upgrade ends when the addon runs at the target version, or reports a failure status. */
export function addonUpgradeConclusion(addon: Addon, targetVersion: string): Conclusion {
  const version = addon.spec?.config?.versionTag;
  const done = addon.status === "running" && version === targetVersion;
  const failed = ADDON_FAILED_STATUSES.includes(addon.status);
  return {
    status: addon.status,
    concluded: done || failed,
    success: done,
    known: knows(ADDON_STATUSES, addon.status),
  };
}

export function restoreConclusion(
  restore: Pick<Restore, "status"> | NonNullable<Backup["lastRestore"]>,
): Conclusion {
  return {
    status: restore.status,
    concluded: RESTORE_FINAL_STATUSES.includes(restore.status),
    success: restore.status === "completed",
    known: restore.status === RESTORE_NOT_LISTED || knows(BACKUP_STATUSES, restore.status),
  };
}

export interface RestartReceipt {
  /**
   * When the platform took the restart by its own clock (its `Date` header, else this machine's),
   * epoch ms: where to read its logs from.
   */
  restartedAt: number;
  /**
   * The deployment's `lastTransitionTime` read just before the restart (the platform's own
   * clock), when it had one: a transition no later than it is the previous rollout's.
   */
  previousTransition?: number | undefined;
  /**
   * Without `previousTransition`, the earliest transition that can be the restart's: `restartedAt`
   * when the `Date` header agrees with this machine's clock within the restart clock tolerance (RESTART_CLOCK_TOLERANCE_MS, services.ts), else
   * this machine's clock (a `Date` two days old must not pass the previous rollout for the new one).
   */
  notBefore: number;
}

/**
 * A restart has finished when the deployment reports COMPLETED with a transition later than the
 * restart; a COMPLETED from before the restart is the old rollout. FAILED after it fails it. With
 * the transition read before the restart, "later" is later than that one (the platform's clock
 * against itself); without it, no earlier than the restart's time.
 */
export function restartConclusion(service: Service, restart: RestartReceipt): Conclusion {
  const deployment = service.status?.deployment;
  const status = deployment?.status ?? "UNKNOWN";
  const transition = parseTimestamp(deployment?.lastTransitionTime);
  const after =
    transition !== undefined &&
    (restart.previousTransition !== undefined
      ? transition > restart.previousTransition
      : transition >= restart.notBefore);
  const concluded = after && (status === "COMPLETED" || status === "FAILED");
  return {
    status,
    concluded,
    success: concluded && status === "COMPLETED",
    known: status === "UNKNOWN" || knows(DEPLOYMENT_STATUSES, status),
  };
}
