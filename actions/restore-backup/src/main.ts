import {
  defineAction,
  InputError,
  OUTPUT,
  optionalResourceIdInput,
  resourceIdInput,
  runAction,
} from "@cwp/action-kit";
import { deployments } from "@cwp/action-kit/github";
import { type Restore, restoreConclusion } from "@cwp/client";

export const definition = defineAction({
  name: "restore-backup",
  inputs: {
    "project-id": resourceIdInput(),
    "addon-id": resourceIdInput(),
    "backup-id": resourceIdInput(),
    "source-project-id": optionalResourceIdInput(),
    "source-addon-id": optionalResourceIdInput(),
  },
  outputs: {
    "restore-id": OUTPUT.id,
    status: OUTPUT.status,
    "backup-size": OUTPUT.number,
    "addon-version": OUTPUT.version,
  },
  validate(config) {
    if ((config["source-project-id"] === undefined) !== (config["source-addon-id"] === undefined))
      throw new InputError(
        config["source-project-id"] === undefined ? "source-project-id" : "source-addon-id",
        "give source-project-id and source-addon-id together (for a global backup of another addon)",
      );
  },
  async start({ config, client, signal, startOptions }) {
    const projectId = config["project-id"];
    const addonId = config["addon-id"];
    const backupId = config["backup-id"];
    const source = config["source-project-id"]
      ? { sourceProjectId: config["source-project-id"], sourceAddonId: config["source-addon-id"] as string }
      : undefined;
    const backup = await client.addons.getBackup(
      source?.sourceProjectId ?? projectId,
      source?.sourceAddonId ?? addonId,
      backupId,
      {
        signal,
      },
    );
    const title = `restore of backup ${backupId} into addon ${addonId} in project ${projectId}`;
    // What the platform may leave out of a backup is read as unknown: a size not given, no version.
    const size = backup.config?.size ?? undefined;
    const snapshotVersion =
      (backup.config?.source?.type === "snapshot" ? backup.config.addonVersion : undefined) ?? undefined;
    const rows: Array<[string, string | undefined]> = [
      ["Project", projectId],
      ["Addon", addonId],
      ["Backup", `${backupId}${source ? ` (from ${source.sourceProjectId}/${source.sourceAddonId})` : ""}`],
      ["Backup size", size === undefined ? undefined : `${size} bytes`],
      ["Restores to version", snapshotVersion],
    ];
    const facts = { "backup-size": size, "addon-version": snapshotVersion ?? "" };
    if (backup.status !== "completed")
      return {
        finished: true,
        title,
        rows,
        outputs: facts,
        success: false,
        message: `Backup ${backupId} is ${backup.status}: only completed backups can be restored. Nothing was restored.`,
      };
    const { restoreId } = await client.addons.restoreBackup(
      projectId,
      addonId,
      backupId,
      source ?? {},
      startOptions,
    );
    return {
      title: `${title} (restore ${restoreId})`,
      rows: [...rows, ["Restore", restoreId]],
      outputs: (r: Restore | undefined) => ({ ...facts, "restore-id": restoreId, status: r?.status }),
      wait: (options) => client.addons.waitForRestore(projectId, addonId, backupId, restoreId, options),
      conclude: restoreConclusion,
    };
  },
});

export const run = () => runAction(definition, deployments);
