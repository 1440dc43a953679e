import {
  booleanInput,
  checkRequest,
  defineAction,
  InputError,
  keyValueInput,
  maskValues,
  OUTPUT,
  optionalResourceIdInput,
  optionalText,
  resourceIdInput,
  runAction,
} from "@cwp/action-kit";
import { deployments } from "@cwp/action-kit/github";
import { type CallOptions, type JobRun, jobRunConclusion, type RunJobBody, runJobBody } from "@cwp/client";

/** Which request field came from which input, so a refusal names the input. */
const FIELDS = {
  runtimeEnvironment: "runtime-environment",
  "billing.deploymentPlan": "deployment-plan",
  "deployment.internal.id": "build-service-id",
  "deployment.internal.buildSHA": "build-sha",
  "deployment.internal.branch": "build-branch",
  "deployment.external.imagePath": "image",
  "deployment.external.credentials": "registry-credentials",
  "deployment.docker.customEntrypoint": "entrypoint",
  "deployment.docker.customCommand": "command",
};

type Config = {
  image?: string | undefined;
  "registry-credentials"?: string | undefined;
  "build-service-id"?: string | undefined;
  "build-sha"?: string | undefined;
  "build-branch"?: string | undefined;
  entrypoint?: string | undefined;
  command?: string | undefined;
};

/** The `deployment` variant the inputs ask for: an external image, a built commit, or the job's own. */
function deployment(config: Config): RunJobBody["deployment"] {
  const { entrypoint, command } = config;
  const docker =
    entrypoint || command
      ? {
          docker: {
            configType:
              entrypoint && command
                ? "customEntrypointCustomCommand"
                : entrypoint
                  ? "customEntrypoint"
                  : "customCommand",
            ...(entrypoint ? { customEntrypoint: entrypoint } : {}),
            ...(command ? { customCommand: command } : {}),
          } as const,
        }
      : {};
  if (config.image)
    return {
      external: {
        imagePath: config.image,
        ...(config["registry-credentials"] ? { credentials: config["registry-credentials"] } : {}),
      },
      ...docker,
    };
  if (config["build-service-id"])
    return {
      internal: {
        id: config["build-service-id"],
        ...(config["build-sha"] ? { buildSHA: config["build-sha"] } : {}),
        ...(config["build-branch"] ? { branch: config["build-branch"] } : {}),
      },
      ...docker,
    };
  return undefined;
}

export const definition = defineAction({
  name: "run-job",
  inputs: {
    "project-id": resourceIdInput(),
    "job-id": resourceIdInput(),
    "runtime-environment": keyValueInput(),
    image: optionalText(),
    "registry-credentials": optionalText(),
    "build-service-id": optionalResourceIdInput(),
    "build-sha": optionalText(),
    "build-branch": optionalText(),
    entrypoint: optionalText(),
    command: optionalText(),
    "deployment-plan": optionalText(),
    logs: booleanInput(true),
  },
  outputs: { "run-id": OUTPUT.id, "run-name": OUTPUT.id, status: OUTPUT.status, concluded: OUTPUT.flag },
  validate(config) {
    if (config.image && config["build-service-id"])
      throw new InputError(
        "image",
        "give image (an external image) or build-service-id (a built commit), not both",
      );
    if (!config.image && config["registry-credentials"])
      throw new InputError("registry-credentials", "only applies with image");
    if (!config["build-service-id"] && (config["build-sha"] || config["build-branch"]))
      throw new InputError(
        config["build-sha"] ? "build-sha" : "build-branch",
        "only applies with build-service-id",
      );
    if (!config.image && !config["build-service-id"] && (config.entrypoint || config.command))
      throw new InputError(
        config.entrypoint ? "entrypoint" : "command",
        "needs image or build-service-id to say what runs",
      );
  },
  async start({ config, client, startOptions }) {
    maskValues(config["runtime-environment"]);
    const projectId = config["project-id"];
    const jobId = config["job-id"];
    const chosen = deployment(config);
    const body = checkRequest(
      runJobBody,
      {
        ...(config["runtime-environment"] ? { runtimeEnvironment: config["runtime-environment"] } : {}),
        ...(config["deployment-plan"] ? { billing: { deploymentPlan: config["deployment-plan"] } } : {}),
        ...(chosen ? { deployment: chosen } : {}),
      },
      FIELDS,
    );
    const started = await client.jobs.run(projectId, jobId, body, startOptions);
    // The run's name is for people: an answer without one names the run by its id.
    const runName = started.runName ?? undefined;
    return {
      title: `run ${runName ?? started.id} of job ${jobId} in project ${projectId}`,
      rows: [
        ["Project", projectId],
        ["Job", jobId],
        ["Run", started.id],
        ["Run name", runName],
        [
          "Image",
          config.image ?? (config["build-service-id"] ? `built by ${config["build-service-id"]}` : undefined),
        ],
      ],
      outputs: (r: JobRun | undefined) => ({
        "run-id": started.id,
        "run-name": runName,
        status: r?.status,
        concluded: r?.concluded,
      }),
      wait: (options) => client.jobs.waitForRun(projectId, jobId, started.id, options),
      history: {
        one: `run of job ${jobId}`,
        many: `runs of job ${jobId}`,
        read: (abortSignal) =>
          client.jobs.recentDurations(projectId, jobId, { signal: abortSignal, except: started.id }),
      },
      conclude: jobRunConclusion,
      ...(config.logs
        ? {
            logs: (startTime: string, options: CallOptions) =>
              client.jobs.followRunLogs(projectId, jobId, started.id, { startTime }, options),
          }
        : {}),
      abort: (options) => client.jobs.abortRun(projectId, jobId, started.id, options),
      read: (options) => client.jobs.getRun(projectId, jobId, started.id, options),
    };
  },
});

export const run = () => runAction(definition, deployments);
