import type { CallOptions, Core } from "../core/core.js";
import { iterateItems, type Page } from "../core/pagination.js";
import { path } from "../core/path.js";
import {
  type Addon,
  addonResponse,
  type Backup,
  backupResponse,
  RESTORE_NOT_LISTED,
  type Restore,
  type RestoreBackupQuery,
  restoreBackupQuery,
  restoreBackupResponse,
  restoreListResponse,
  upgradeAddonBody,
} from "../schemas/addons.js";
import { type CursorListQuery, cursorListQuery, emptyData } from "../schemas/shared.js";
import { NotFoundError } from "../transport/errors.js";
import { addonUpgradeConclusion, restoreConclusion } from "../waiting/conclusions.js";
import type { WaitOptions } from "../waiting/poll.js";

/** How long after a restore's start the restores list may still not show it. */
export const RESTORE_LISTING_GRACE_MS = 30_000;

export class Addons {
  constructor(private readonly core: Core) {}

  async get(projectId: string, addonId: string, options?: CallOptions): Promise<Addon> {
    return (
      await this.core.call(
        { method: "GET", path: path`/v1/projects/${projectId}/addons/${addonId}`, response: addonResponse },
        options,
      )
    ).data;
  }

  /** Asks for `version`; asking again for the same version changes nothing, so it may be retried. */
  async upgrade(projectId: string, addonId: string, version: string, options?: CallOptions): Promise<void> {
    const at = path`/v1/projects/${projectId}/addons/${addonId}/version`;
    const body = this.core.check(upgradeAddonBody, { version }, "POST", at, "body");
    await this.core.call(
      {
        method: "POST",
        path: at,
        body,
        safety: "idempotent",
        checkHint: `the addon's status and version (GET ${path`/v1/projects/${projectId}/addons/${addonId}`})`,
        response: emptyData,
      },
      options,
    );
  }

  /** Waits until the addon runs at `version`; resolves to the addon when it does or when it fails. */
  waitForUpgrade(
    projectId: string,
    addonId: string,
    version: string,
    options: WaitOptions<Addon> & CallOptions = {},
  ): Promise<Addon> {
    const at = path`/v1/projects/${projectId}/addons/${addonId}`;
    return this.core.waitUntil(
      `upgrade of addon ${addonId} to ${version}`,
      at,
      (o) => this.get(projectId, addonId, o),
      (addon) => addonUpgradeConclusion(addon, version),
      options,
    );
  }

  async getBackup(
    projectId: string,
    addonId: string,
    backupId: string,
    options?: CallOptions,
  ): Promise<Backup> {
    const at = path`/v1/projects/${projectId}/addons/${addonId}/backups/${backupId}`;
    return (await this.core.call({ method: "GET", path: at, response: backupResponse }, options)).data;
  }

  /** Starts a restore. Never sent twice: after an ambiguous failure the error says the outcome is unknown. */
  async restoreBackup(
    projectId: string,
    addonId: string,
    backupId: string,
    query: RestoreBackupQuery = {},
    options?: CallOptions,
  ): Promise<{ restoreId: string }> {
    const at = path`/v1/projects/${projectId}/addons/${addonId}/backups/${backupId}/restore`;
    const q = this.core.check(restoreBackupQuery, query, "POST", at, "query");
    const res = await this.core.call(
      {
        method: "POST",
        path: at,
        query: q,
        safety: "start-work",
        checkHint: `the backup's restores (GET ${path`/v1/projects/${projectId}/addons/${addonId}/backups/${backupId}/restores`})`,
        response: restoreBackupResponse,
      },
      options,
    );
    return res.data;
  }

  async listRestores(
    projectId: string,
    addonId: string,
    backupId: string,
    query: CursorListQuery = {},
    options?: CallOptions,
  ): Promise<Page<Restore>> {
    const at = path`/v1/projects/${projectId}/addons/${addonId}/backups/${backupId}/restores`;
    const q = this.core.check(cursorListQuery, query, "GET", at, "query");
    const res = await this.core.call(
      { method: "GET", path: at, query: q, response: restoreListResponse },
      options,
    );
    return { items: res.data.restores, pagination: res.pagination };
  }

  iterateRestores(
    projectId: string,
    addonId: string,
    backupId: string,
    query: CursorListQuery = {},
    options?: CallOptions,
  ) {
    return iterateItems(
      (q) => this.listRestores(projectId, addonId, backupId, q, options),
      query,
      this.core.walk(path`/v1/projects/${projectId}/addons/${addonId}/backups/${backupId}/restores`, options),
    );
  }

  /** One restore of a backup, found in its restores list. */
  async getRestore(
    projectId: string,
    addonId: string,
    backupId: string,
    restoreId: string,
    options?: CallOptions,
  ): Promise<Restore> {
    for await (const restore of this.iterateRestores(
      projectId,
      addonId,
      backupId,
      { per_page: 100 },
      options,
    )) {
      if (restore.id === restoreId) return restore;
    }
    const at = path`/v1/projects/${projectId}/addons/${addonId}/backups/${backupId}/restores`;
    throw new NotFoundError(`restore ${restoreId} is not among the restores of backup ${backupId}`, {
      method: "GET",
      path: at,
      status: 404,
    });
  }

  /**
   * Waits until the restore is completed, failed, aborted or not supported. A restore the list
   * does not show yet (absent, or the list answering 404) is read again for
   * RESTORE_LISTING_GRACE_MS from the wait's start, with the status `not listed yet`: the
   * platform may list a restore a moment after it answered its start.
   */
  waitForRestore(
    projectId: string,
    addonId: string,
    backupId: string,
    restoreId: string,
    options: WaitOptions<Restore> & CallOptions = {},
  ): Promise<Restore> {
    const at = path`/v1/projects/${projectId}/addons/${addonId}/backups/${backupId}/restores`;
    const { clock } = this.core.transport;
    const graceEnds = clock.now() + RESTORE_LISTING_GRACE_MS;
    return this.core.waitUntil(
      `restore ${restoreId}`,
      at,
      (o) =>
        this.getRestore(projectId, addonId, backupId, restoreId, o).catch((error: unknown) => {
          if (error instanceof NotFoundError && clock.now() < graceEnds)
            return { id: restoreId, status: RESTORE_NOT_LISTED };
          throw error;
        }),
      restoreConclusion,
      options,
    );
  }
}
