import {
  booleanInput,
  checkRequest,
  defineAction,
  host,
  keyValueInput,
  maskValues,
  OUTPUT,
  optionalText,
  resourceIdInput,
  runAction,
  say,
} from "@cwp/action-kit";
import { deployments } from "@cwp/action-kit/github";
import {
  type Build,
  buildConclusion,
  type CallOptions,
  type StartBuildBody,
  startBuildBody,
  ValidationError,
} from "@cwp/client";
import { z } from "zod";
import { refFromEvent } from "./event.js";

/** Which request field came from which input, so a refusal names the input. */
const FIELDS = {
  branch: "branch",
  pullRequestId: "pull-request-id",
  sha: "sha",
  bundleUrl: "bundle-url",
  "overrides.buildArguments": "build-arguments",
  "overrides.docker.dockerFilePath": "dockerfile-path",
  "overrides.docker.dockerWorkDir": "docker-work-dir",
  "overrides.docker.dockerfileTarget": "dockerfile-target",
};

/**
 * Only the platform knows a service's kind: a combined service builds a `sha` alone (or its latest
 * commit), a build service needs a branch or pull request (beyond-the-seed §5). When the platform
 * refuses for that reason, say which inputs to set.
 */
function refusedForKind(error: unknown, serviceId: string, body: StartBuildBody): Error | undefined {
  const needsRef =
    error instanceof ValidationError &&
    error.status === 400 &&
    body.branch === undefined &&
    body.pullRequestId === undefined &&
    typeof error.details === "object" &&
    error.details !== null &&
    "body.branch" in error.details;
  if (!needsRef) return undefined;
  const set = (input: string, value: string) => host().inputSetting(input, value);
  return new ValidationError(
    `Service ${serviceId} is a build service: it builds from a branch or a pull request, so set ${set("branch", "<branch>")} or ${set("pull-request-id", "<number>")} (with ${set("sha", "<commit>")} to pin the commit). Nothing was started. (${error.message})`,
    error,
  );
}

export const definition = defineAction({
  name: "trigger-build",
  inputs: {
    "project-id": resourceIdInput(),
    "service-id": resourceIdInput(),
    branch: optionalText(),
    "pull-request-id": optionalText().pipe(
      z.string().regex(/^\d+$/, "must be a pull request number").optional(),
    ),
    sha: optionalText(),
    "bundle-url": optionalText(),
    "build-arguments": keyValueInput(),
    "dockerfile-path": optionalText(),
    "docker-work-dir": optionalText(),
    "dockerfile-target": optionalText(),
    logs: booleanInput(true),
  },
  outputs: {
    "build-id": OUTPUT.id,
    status: OUTPUT.status,
    concluded: OUTPUT.flag,
    success: OUTPUT.flag,
    image: OUTPUT.image,
    sha: OUTPUT.sha,
    branch: OUTPUT.branch,
  },
  async start({ config, client, startOptions }) {
    maskValues(config["build-arguments"]);
    const projectId = config["project-id"];
    const serviceId = config["service-id"];
    const given = config.branch ?? config["pull-request-id"] ?? config.sha ?? config["bundle-url"];
    const ref = given === undefined ? refFromEvent() : undefined;
    if (ref)
      say(
        `No branch, pull request or commit given: building ${ref.branch ? `branch ${ref.branch}` : `pull request #${ref.pullRequestId}`}${ref.sha ? ` at ${ref.sha}` : ""}, from ${ref.origin}.`,
      );
    const docker = {
      ...(config["dockerfile-path"] ? { dockerFilePath: config["dockerfile-path"] } : {}),
      ...(config["docker-work-dir"] ? { dockerWorkDir: config["docker-work-dir"] } : {}),
      ...(config["dockerfile-target"] ? { dockerfileTarget: config["dockerfile-target"] } : {}),
    };
    const overrides = {
      ...(config["build-arguments"] ? { buildArguments: config["build-arguments"] } : {}),
      ...(Object.keys(docker).length > 0 ? { docker } : {}),
    };
    const body = checkRequest(
      startBuildBody,
      {
        ...(config["bundle-url"] ? { bundleUrl: config["bundle-url"] } : {}),
        ...((ref?.branch ?? config.branch) ? { branch: ref?.branch ?? config.branch } : {}),
        ...((ref?.pullRequestId ?? config["pull-request-id"]) !== undefined
          ? { pullRequestId: ref?.pullRequestId ?? config["pull-request-id"] }
          : {}),
        ...((ref?.sha ?? config.sha) ? { sha: ref?.sha ?? config.sha } : {}),
        ...(Object.keys(overrides).length > 0 ? { overrides } : {}),
      } satisfies StartBuildBody,
      FIELDS,
    );
    const build = await client.builds
      .start(projectId, serviceId, body, startOptions)
      .catch((error: unknown) => {
        throw refusedForKind(error, serviceId, body) ?? error;
      });
    const where = `service ${serviceId} in project ${projectId}`;
    return {
      title: `build ${build.id} of ${where}`,
      initial: build,
      rows: [
        ["Project", projectId],
        ["Service", serviceId],
        ["Build", build.id],
        ["Branch", build.branch ?? undefined],
        ["Pull request", build.pullRequestId == null ? undefined : `#${build.pullRequestId}`],
        ["Commit", build.sha ?? undefined],
      ],
      outputs: (b: Build | undefined) => ({
        "build-id": build.id,
        status: b?.status,
        concluded: b?.concluded ?? false,
        success: b ? buildConclusion(b).success : false,
        // The built image: a build that failed, or never ended, built none (whatever URI it names).
        image: b && buildConclusion(b).success ? (b.registry?.uri ?? undefined) : undefined,
        sha: b?.sha ?? undefined,
        branch: b?.branch ?? undefined,
      }),
      wait: (options) => client.builds.waitFor(projectId, serviceId, build.id, options),
      history: {
        one: `build of service ${serviceId}`,
        many: `builds of service ${serviceId}`,
        read: (abortSignal) =>
          client.builds.recentDurations(projectId, serviceId, { signal: abortSignal, except: build.id }),
      },
      conclude: buildConclusion,
      message: (b: Build) => b.message ?? undefined,
      ...(config.logs
        ? {
            logs: (startTime: string, options: CallOptions) =>
              client.builds.followLogs(projectId, serviceId, build.id, { startTime }, options),
          }
        : {}),
      abort: (options) => client.builds.abort(projectId, serviceId, build.id, options),
      read: (options) => client.builds.get(projectId, serviceId, build.id, options),
    };
  },
});

export const run = () => runAction(definition, deployments);
