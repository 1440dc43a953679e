import {
  booleanInput,
  defineAction,
  host,
  InputError,
  OUTPUT,
  requiredText,
  resourceIdInput,
  runAction,
} from "@cwp/action-kit";
import { deployments } from "@cwp/action-kit/github";
import { type Addon, addonUpgradeConclusion } from "@cwp/client";
import { isOlder } from "./versions.js";

export const definition = defineAction({
  name: "upgrade-addon",
  inputs: {
    "project-id": resourceIdInput(),
    "addon-id": resourceIdInput(),
    version: requiredText(),
    force: booleanInput(false),
    "allow-downgrade": booleanInput(false),
  },
  outputs: { "previous-version": OUTPUT.version, version: OUTPUT.version, status: OUTPUT.status },
  async start({ config, client, signal, startOptions }) {
    const projectId = config["project-id"];
    const addonId = config["addon-id"];
    const target = config.version;
    const title = `upgrade of addon ${addonId} in project ${projectId} to ${target}`;
    const addon = await client.addons.get(projectId, addonId, { signal });
    const previous = addon.spec?.config?.versionTag ?? "";
    const rows: Array<[string, string | undefined]> = [
      ["Project", projectId],
      ["Addon", addonId],
      ["Previous version", previous],
      ["Version", target],
    ];
    const outputs = (a: Addon | undefined) => ({
      "previous-version": previous,
      version: a?.spec?.config?.versionTag ?? previous,
      status: a?.status ?? addon.status,
    });
    if (previous === target)
      return {
        finished: true,
        title,
        rows,
        outputs: outputs(addon),
        success: true,
        message: `Addon ${addonId} already runs ${target}: nothing to upgrade.`,
      };
    // 16.4 to 15.7 is more often a typo (for 17.0) than a wish: refused unless it is said.
    if (isOlder(target, previous) && !config["allow-downgrade"])
      throw new InputError(
        "version",
        `${target} is older than ${previous}, the version addon ${addonId} runs: a downgrade, not done. Give the newer version you meant, or set ${host().inputSetting("allow-downgrade", "true")} to downgrade it`,
      );
    if (addon.status !== "running" && !config.force)
      return {
        finished: true,
        title,
        rows,
        outputs: outputs(addon),
        success: false,
        message: `Addon ${addonId} is ${addon.status}, not running: not upgraded. Set ${host().inputSetting("force", "true")} to upgrade it anyway.`,
      };
    await client.addons.upgrade(projectId, addonId, target, startOptions);
    return {
      title,
      rows,
      outputs,
      wait: (options) => client.addons.waitForUpgrade(projectId, addonId, target, options),
      conclude: (a: Addon) => addonUpgradeConclusion(a, target),
      message: (a: Addon) =>
        addonUpgradeConclusion(a, target).success
          ? undefined
          : `the addon reports ${a.status} at version ${a.spec?.config?.versionTag ?? "unknown"}`,
    };
  },
});

export const run = () => runAction(definition, deployments);
