import { InputError } from "@cwp/action-kit";
import { type CallOptions, type CwpClient, type FetchLogs, parseTimestamp } from "@cwp/client";

// Which logs to read: a service's, a build's (service-id with build-id), or any container's.

export interface LogSourceInputs {
  "project-id"?: string | undefined;
  "service-id"?: string | undefined;
  "build-id"?: string | undefined;
  "container-name"?: string | undefined;
  "pod-name"?: string | undefined;
  "cluster-id"?: string | undefined;
}

export interface LogSource {
  title: string;
  fetch: FetchLogs;
  /** The range the source's own life covers (a build's), when no time is given. */
  ownRange?: () => Promise<{ startTime: string; endTime: string }>;
}

/** A minute either side of a build's life: its first and last lines are printed within it. */
const BUILD_MARGIN_MS = 60_000;

/** `options` (signal, deadline) go with every page request. */
export function logSource(client: CwpClient, config: LogSourceInputs, options: CallOptions): LogSource {
  const projectId = config["project-id"];
  const serviceId = config["service-id"];
  const container = config["container-name"] ?? config["pod-name"] ?? config["cluster-id"];
  if (serviceId && container)
    throw new InputError(
      "service-id",
      "give service-id (with build-id for a build) or container-name/pod-name/cluster-id, not both",
    );
  if (config["build-id"] && !serviceId)
    throw new InputError("build-id", "needs service-id: the build's service");
  if (serviceId) {
    if (!projectId) throw new InputError("project-id", "is required with service-id");
    const buildId = config["build-id"];
    if (buildId)
      return {
        title: `logs of build ${buildId} of service ${serviceId} in project ${projectId}`,
        fetch: (q) => client.builds.logs(projectId, serviceId, { ...q, buildId }, options),
        ownRange: async () => {
          const build = await client.builds.get(projectId, serviceId, buildId, options);
          const created = parseTimestamp(build.createdAt) ?? Date.now();
          const concluded = parseTimestamp(build.buildConcludedAt) ?? Date.now();
          return {
            startTime: new Date(created - BUILD_MARGIN_MS).toISOString(),
            endTime: new Date(Math.max(concluded, created) + BUILD_MARGIN_MS).toISOString(),
          };
        },
      };
    return {
      title: `logs of service ${serviceId} in project ${projectId}`,
      fetch: (q) => client.observability.serviceLogs(projectId, serviceId, q, options),
    };
  }
  if (!container && !projectId)
    throw new InputError(
      "service-id",
      "say whose logs: service-id, or container-name, pod-name, cluster-id or project-id",
    );
  const selectors = {
    ...(projectId ? { projectId } : {}),
    ...(config["container-name"] ? { containerName: config["container-name"] } : {}),
    ...(config["pod-name"] ? { podName: config["pod-name"] } : {}),
    ...(config["cluster-id"] ? { clusterId: config["cluster-id"] } : {}),
  };
  return {
    title: `logs of ${Object.entries(selectors)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
    fetch: (q) => client.observability.logs({ ...q, ...selectors }, options),
  };
}
