import { ApiFailure } from "../http.js";
import type { Addon, Backup } from "../model/world.js";
import { CLUSTER_ID } from "../observability/containers.js";
import { newestFirst } from "../paginate.js";
import { type Context, findIn, get, post, type Route, requireWrite, visibleProject } from "../router.js";
import { restoreBackupQuery, upgradeAddonBody } from "../rules/work.js";
import { checkBody, checkQuery } from "../validate.js";
import { busyReason, restoreBackup, restoreView, upgradeAddon } from "../work/addon-operations.js";

// Addons, backups and restores: spec 2.8, 3.2, 3.3, 4.6 and the restores list of
// beyond-the-seed §1.

function addonOf(ctx: Context, projectId = ctx.params.projectId, addonId = ctx.params.addonId): Addon {
  const project = visibleProject(ctx, projectId);
  return findIn(ctx.world.addons, project.id, addonId, "addon");
}

function backupOf(addon: Addon, backupId: string | undefined): Backup {
  const backup = addon.backups.find((b) => b.id === backupId);
  if (!backup) throw new ApiFailure(404, `backup ${backupId} of addon ${addon.id} not found`);
  return backup;
}

function addonView(ctx: Context, addon: Addon) {
  const state = addon.state.at(ctx.now);
  return {
    id: addon.id,
    uid: addon.uid,
    name: addon.name,
    appId: `${addon.projectId}/${addon.id}`,
    stageId: "production",
    tags: ["managed"],
    description: `${addon.type} for ${addon.projectId}`,
    createdAt: new Date(addon.createdAt).toISOString(),
    status: state.status,
    spec: {
      type: addon.type,
      config: {
        versionTag: state.versionTag,
        lifecycleStatus: "supported",
        deployment: {
          replicas: 1,
          storageClass: "ssd",
          storageSize: 10240,
          planId: "nf-compute-20",
          region: "europe-west",
        },
        networking: { tlsEnabled: true, externalAccessEnabled: false, vpcAccessible: false, ipPolicies: [] },
      },
      pendingActions: [],
    },
    cluster: { id: CLUSTER_ID, name: "EU West", namespace: `ns-${addon.projectId}`, loadBalancers: [] },
  };
}

function backupView(ctx: Context, addon: Addon, backup: Backup) {
  const last = ctx.world.restores
    .filter(
      (r) =>
        r.backup.projectId === addon.projectId &&
        r.backup.addonId === addon.id &&
        r.backup.backupId === backup.id,
    )
    .at(-1);
  const restore = last ? restoreView(last, ctx.now) : undefined;
  return {
    id: backup.id,
    name: backup.name,
    uid: backup.uid,
    status: backup.status,
    createdAt: new Date(backup.createdAt).toISOString(),
    ...(backup.completedAt !== undefined ? { completedAt: new Date(backup.completedAt).toISOString() } : {}),
    config: {
      source: { type: backup.sourceType },
      size: String(backup.sizeBytes),
      addonVersion: backup.addonVersion,
    },
    ...(restore
      ? {
          lastRestore: {
            restoreTimestamp: restore.restoreTimestamp,
            status: restore.status,
            ...(restore.completedAt ? { completedAt: restore.completedAt } : {}),
          },
        }
      : {}),
  };
}

export const addonRoutes: Route[] = [
  get("/v1/projects/:projectId/addons/:addonId", (ctx) => ({ data: addonView(ctx, addonOf(ctx)) })),
  post("/v1/projects/:projectId/addons/:addonId/version", (ctx) => {
    const addon = addonOf(ctx);
    requireWrite(ctx, "Project > Addons > General > Update");
    const { version } = checkBody(upgradeAddonBody, ctx.body);
    if (!addon.versions.includes(version))
      throw new ApiFailure(400, "invalid request body", {
        "body.version": [`${addon.type} versions are ${addon.versions.join(", ")}`],
      });
    // Asking again for the version an upgrade is already heading to is the same request.
    if (addon.state.last.state.versionTag === version && addon.state.last.state.status === "running")
      return { data: {} };
    const busy = busyReason(addon, ctx.now);
    if (busy) throw new ApiFailure(409, busy);
    upgradeAddon(addon, version, ctx.now, ctx.outcomes.take("addonUpgrade", addon.outcomes));
    return { data: {} };
  }),
  get("/v1/projects/:projectId/addons/:addonId/backups/:backupId", (ctx) => {
    const addon = addonOf(ctx);
    return { data: backupView(ctx, addon, backupOf(addon, ctx.params.backupId)) };
  }),
  post("/v1/projects/:projectId/addons/:addonId/backups/:backupId/restore", (ctx) => {
    const target = addonOf(ctx);
    requireWrite(ctx, "Project > Addons > General > Update");
    const q = checkQuery(restoreBackupQuery, ctx.query);
    if ((q.sourceProjectId === undefined) !== (q.sourceAddonId === undefined))
      throw new ApiFailure(400, "invalid query", {
        [q.sourceProjectId === undefined ? "query.sourceProjectId" : "query.sourceAddonId"]: [
          "give sourceProjectId and sourceAddonId together",
        ],
      });
    const sourceAddon = q.sourceProjectId ? addonOf(ctx, q.sourceProjectId, q.sourceAddonId) : target;
    const backup = backupOf(sourceAddon, ctx.params.backupId);
    if (sourceAddon !== target && !backup.global)
      throw new ApiFailure(409, `backup ${backup.id} is not global: it restores only into ${sourceAddon.id}`);
    if (backup.status !== "completed")
      throw new ApiFailure(409, `backup ${backup.id} is ${backup.status}: only completed backups restore`);
    const busy = busyReason(target, ctx.now);
    if (busy) throw new ApiFailure(409, busy);
    const restore = restoreBackup(
      ctx.world,
      { addon: sourceAddon, backup },
      target,
      ctx.now,
      ctx.outcomes.take("restore", target.outcomes),
    );
    return { data: { restoreId: restore.id } };
  }),
  get("/v1/projects/:projectId/addons/:addonId/backups/:backupId/restores", (ctx) => {
    const addon = addonOf(ctx);
    const backupId = ctx.params.backupId;
    // Restores of this addon's backup, and restores of a global backup into this addon.
    const restores = ctx.world.restores.filter(
      (r) =>
        r.backup.backupId === backupId &&
        ((r.backup.projectId === addon.projectId && r.backup.addonId === addon.id) ||
          (r.target.projectId === addon.projectId && r.target.addonId === addon.id)),
    );
    if (restores.length === 0) backupOf(addon, backupId);
    const { items, pagination } = newestFirst(
      restores,
      (r) => restoreView(r, ctx.now),
      ctx.query,
      ctx.settings.pageShape,
    );
    return { data: { restores: items }, pagination };
  }),
];
