import { shortIdFor } from "../ids.js";
import type { Outcome } from "../model/outcome.js";
import { Timeline } from "../model/timeline.js";
import type { Restore, RestoreState } from "../model/work-records.js";
import type { Addon, Backup, World } from "../model/world.js";
import { durationMs } from "./outcomes.js";

// Addon upgrades (`upgrading`, then `running` at the new version) and backup restores
// (scheduled → in-progress → completed, the addon in `restore` meanwhile), beyond-the-seed §1.

const UPGRADE_SECONDS = 20;
const RESTORE_SECONDS = 30;
const BUSY = new Set(["upgrading", "restore", "backup", "resetting", "scaling", "deleting", "deleted"]);

/** Why the addon cannot take an operation now, if it cannot. */
export function busyReason(addon: Addon, now: number): string | undefined {
  const { status } = addon.state.at(now);
  return BUSY.has(status) ? `addon ${addon.id} is ${status}; try again when the operation ends` : undefined;
}

export function upgradeAddon(addon: Addon, version: string, now: number, outcome: Outcome): void {
  const current = addon.state.at(now);
  const succeed = outcome.succeed ?? (outcome.status === undefined || outcome.status === "running");
  addon.state.rewrite(now, [
    { at: now, state: { status: "upgrading", versionTag: current.versionTag } },
    {
      at: now + durationMs(outcome, UPGRADE_SECONDS),
      state: succeed
        ? { status: "running", versionTag: version }
        : { status: outcome.status ?? "failed", versionTag: current.versionTag },
    },
  ]);
}

export function restoreBackup(
  world: World,
  source: { addon: Addon; backup: Backup },
  target: Addon,
  now: number,
  outcome: Outcome,
): Restore {
  const end = now + durationMs(outcome, RESTORE_SECONDS);
  const succeed = outcome.succeed ?? (outcome.status === undefined || outcome.status === "completed");
  const finalStatus = outcome.status ?? (succeed ? "completed" : "failed");
  const before = target.state.at(now);
  // A snapshot brings the addon back to the version it was taken at.
  const version = source.backup.sourceType === "snapshot" ? source.backup.addonVersion : before.versionTag;
  const restore: Restore = {
    id: outcome.id ?? shortIdFor("rst-", world.seed, `restore:${world.restores.length}`),
    backup: { projectId: source.addon.projectId, addonId: source.addon.id, backupId: source.backup.id },
    target: { projectId: target.projectId, addonId: target.id },
    requestedAt: now,
    timeline: new Timeline<RestoreState>([
      { at: now, state: { status: "scheduled" } },
      { at: now + 2000, state: { status: "in-progress" } },
      { at: end, state: { status: finalStatus, completedAt: end } },
    ]),
  };
  target.state.rewrite(now, [
    { at: now + 2000, state: { status: "restore", versionTag: before.versionTag } },
    { at: end, state: { status: "running", versionTag: succeed ? version : before.versionTag } },
  ]);
  world.restores.push(restore);
  return restore;
}

export function restoreView(restore: Restore, now: number) {
  const state = restore.timeline.at(now);
  return {
    id: restore.id,
    status: state.status,
    restoreTimestamp: new Date(restore.requestedAt).toISOString(),
    completedAt: state.completedAt === undefined ? null : new Date(state.completedAt).toISOString(),
  };
}
