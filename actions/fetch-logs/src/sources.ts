import { InputError } from "@cwp/action-kit";
import { type CallOptions, type CwpClient, type FetchLogs, parseTimestamp } from "@cwp/client";

// Which logs to read: a service's, a build's (service-id with build-id), a job's runs (job-id, with
// run-id for one run), or any container's.

export interface LogSourceInputs {
  "project-id"?: string | undefined;
  "service-id"?: string | undefined;
  "build-id"?: string | undefined;
  "job-id"?: string | undefined;
  "run-id"?: string | undefined;
  "container-name"?: string | undefined;
  "pod-name"?: string | undefined;
  "cluster-id"?: string | undefined;
}

export interface LogSource {
  title: string;
  fetch: FetchLogs;
  /** The range the source's own life covers (a build's or a run's), when no time is given. */
  ownRange?: () => Promise<{ startTime: string; endTime: string }>;
}

/** A minute either side of a build's or run's life: its first and last lines are printed within it. */
const LIFE_MARGIN_MS = 60_000;

/** The range from a minute before `start` to a minute after `end` (`now` while it still runs). */
function lifeRange(
  start: Parameters<typeof parseTimestamp>[0],
  end: Parameters<typeof parseTimestamp>[0],
  now: number,
) {
  const started = parseTimestamp(start) ?? now;
  const ended = parseTimestamp(end) ?? now;
  return {
    startTime: new Date(started - LIFE_MARGIN_MS).toISOString(),
    endTime: new Date(Math.max(ended, started) + LIFE_MARGIN_MS).toISOString(),
  };
}

/** `options` (signal, deadline) go with every page request; `now` is the host's time (`Host.clock`). */
export function logSource(
  client: CwpClient,
  config: LogSourceInputs,
  options: CallOptions,
  now: () => number,
): LogSource {
  const projectId = config["project-id"];
  const serviceId = config["service-id"];
  const jobId = config["job-id"];
  const container = config["container-name"] ?? config["pod-name"] ?? config["cluster-id"];
  if ([serviceId, jobId, container].filter(Boolean).length > 1)
    throw new InputError(
      serviceId ? "service-id" : "job-id",
      "give one of service-id (with build-id for a build), job-id (with run-id for a run) or container-name/pod-name/cluster-id",
    );
  if (config["build-id"] && !serviceId)
    throw new InputError("build-id", "needs service-id: the build's service");
  if (config["run-id"] && !jobId) throw new InputError("run-id", "needs job-id: the run's job");
  if (jobId) {
    if (!projectId) throw new InputError("project-id", "is required with job-id");
    const runId = config["run-id"];
    return {
      title: runId
        ? `logs of run ${runId} of job ${jobId} in project ${projectId}`
        : `logs of job ${jobId} in project ${projectId}`,
      fetch: (q) => client.jobs.logs(projectId, jobId, { ...q, ...(runId ? { runId } : {}) }, options),
      ...(runId
        ? {
            ownRange: async () => {
              const run = await client.jobs.getRun(projectId, jobId, runId, options);
              return lifeRange(run.startedAt, run.concludedAt, now());
            },
          }
        : {}),
    };
  }
  if (serviceId) {
    if (!projectId) throw new InputError("project-id", "is required with service-id");
    const buildId = config["build-id"];
    if (buildId)
      return {
        title: `logs of build ${buildId} of service ${serviceId} in project ${projectId}`,
        fetch: (q) => client.builds.logs(projectId, serviceId, { ...q, buildId }, options),
        ownRange: async () => {
          const build = await client.builds.get(projectId, serviceId, buildId, options);
          return lifeRange(build.createdAt, build.buildConcludedAt, now());
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
      "say whose logs: service-id, job-id, or container-name, pod-name, cluster-id or project-id",
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
