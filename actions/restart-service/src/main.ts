import {
  booleanInput,
  defineAction,
  host,
  InputError,
  OUTPUT,
  optionalResourceIdInput,
  resourceIdInput,
  runAction,
} from "@cwp/action-kit";
import { deployments } from "@cwp/action-kit/github";
import { ConflictError, restartConclusion, type Service } from "@cwp/client";

/**
 * The platform refuses (409) to restart a harness with active sessions unless told, and says so in
 * its API's words (`acknowledgeActiveSessions=true`): say which input of this step does that.
 */
function refusedForSessions(error: unknown, harnessId: string, acknowledged: boolean): Error | undefined {
  if (!(error instanceof ConflictError) || acknowledged) return undefined;
  return new ConflictError(
    `Harness ${harnessId} was not restarted: ${error.message}. If it has active sessions, set ${host().inputSetting("acknowledge-active-sessions", "true")} to restart it anyway.`,
    error,
  );
}

export const definition = defineAction({
  name: "restart-service",
  inputs: {
    "project-id": resourceIdInput(),
    "service-id": optionalResourceIdInput(),
    "harness-id": optionalResourceIdInput(),
    "acknowledge-active-sessions": booleanInput(false),
  },
  outputs: { status: OUTPUT.status, "restarted-at": OUTPUT.time },
  validate(config) {
    if ((config["service-id"] === undefined) === (config["harness-id"] === undefined))
      throw new InputError("service-id", "give exactly one of service-id and harness-id");
    if (config["service-id"] && config["acknowledge-active-sessions"])
      throw new InputError("acknowledge-active-sessions", "only applies to a harness (harness-id)");
  },
  async start({ config, client, clock, startOptions }) {
    const projectId = config["project-id"];
    const harnessId = config["harness-id"];
    if (harnessId) {
      const acknowledged = config["acknowledge-active-sessions"];
      await client.harnesses
        .restart(projectId, harnessId, { acknowledgeActiveSessions: acknowledged }, startOptions)
        .catch((error: unknown) => {
          throw refusedForSessions(error, harnessId, acknowledged) ?? error;
        });
      const at = new Date(clock.now()).toISOString();
      return {
        finished: true,
        title: `restart of harness ${harnessId} in project ${projectId}`,
        rows: [
          ["Project", projectId],
          ["Harness", harnessId],
        ],
        outputs: { status: "RESTARTED", "restarted-at": at },
        success: true,
        message: `Harness ${harnessId} restarted (the platform reports no rollout to wait for).`,
      };
    }
    const serviceId = config["service-id"] as string;
    const receipt = await client.services.restart(projectId, serviceId, startOptions);
    const restartedAt = new Date(receipt.restartedAt).toISOString();
    return {
      title: `restart of service ${serviceId} in project ${projectId}`,
      rows: [
        ["Project", projectId],
        ["Service", serviceId],
        ["Restarted at", restartedAt],
      ],
      outputs: (s: Service | undefined) => ({
        status: s ? restartConclusion(s, receipt).status : undefined,
        "restarted-at": restartedAt,
      }),
      wait: (options) => client.services.waitForRestart(projectId, serviceId, receipt, options),
      conclude: (s: Service) => restartConclusion(s, receipt),
      // Right after a restart the deployment still shows the previous rollout's state.
      describeStatus: (status: string, s: Service) =>
        restartConclusion(s, receipt).concluded || status === "IN_PROGRESS" || status === "PENDING"
          ? status
          : `waiting for the new rollout (the previous one shows ${status})`,
    };
  },
});

export const run = () => runAction(definition, deployments);
