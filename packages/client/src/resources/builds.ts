import { type CallOptions, type Core, withSignal } from "../core/core.js";
import { iterateItems, type Page } from "../core/pagination.js";
import { path } from "../core/path.js";
import { LogFollower, type LogFollowerOptions } from "../logs/follower.js";
import {
  type Build,
  buildListResponse,
  buildResponse,
  type StartBuildBody,
  startBuildBody,
} from "../schemas/builds.js";
import { type BuildLogQuery, buildLogQuery, type LogLine, logsResponse } from "../schemas/observability.js";
import { type BuildArgumentsQuery, buildArgumentsQuery, buildArgumentsResponse } from "../schemas/secrets.js";
import { type CursorListQuery, cursorListQuery, emptyData } from "../schemas/shared.js";
import { buildConclusion } from "../waiting/conclusions.js";
import { durationsOf, HISTORY_SIZE, type HistoryOptions } from "../waiting/history.js";
import type { WaitOptions } from "../waiting/poll.js";

/** Service builds: start, read, list, abort, logs, and waiting for a build to conclude. */
export class Builds {
  constructor(private readonly core: Core) {}

  /** Starts a build. Never sent twice: after an ambiguous failure the error says the outcome is unknown. */
  async start(
    projectId: string,
    serviceId: string,
    body: StartBuildBody,
    options?: CallOptions,
  ): Promise<Build> {
    const at = path`/v1/projects/${projectId}/services/${serviceId}/build`;
    const checked = this.core.check(startBuildBody, body, "POST", at, "body");
    const res = await this.core.call(
      {
        method: "POST",
        path: at,
        body: checked,
        safety: "start-work",
        checkHint: `the service's latest builds (GET ${at})`,
        response: buildResponse,
      },
      options,
    );
    return res.data;
  }

  async get(projectId: string, serviceId: string, buildId: string, options?: CallOptions): Promise<Build> {
    const at = path`/v1/projects/${projectId}/services/${serviceId}/build/${buildId}`;
    return (await this.core.call({ method: "GET", path: at, response: buildResponse }, options)).data;
  }

  async list(
    projectId: string,
    serviceId: string,
    query: CursorListQuery = {},
    options?: CallOptions,
  ): Promise<Page<Build>> {
    const at = path`/v1/projects/${projectId}/services/${serviceId}/build`;
    const q = this.core.check(cursorListQuery, query, "GET", at, "query");
    const res = await this.core.call(
      { method: "GET", path: at, query: q, response: buildListResponse },
      options,
    );
    return { items: res.data.builds, pagination: res.pagination };
  }

  /**
   * How long the service's latest successful builds took, ms, from one request: pass them to
   * `waitFor` as `expectedDurationsMs` so its polls gather where this service's builds end.
   */
  async recentDurations(
    projectId: string,
    serviceId: string,
    options: HistoryOptions = {},
  ): Promise<number[]> {
    const { except, ...call } = options;
    const { items } = await this.list(projectId, serviceId, { per_page: HISTORY_SIZE }, call);
    return durationsOf(
      items.filter((b) => b.id !== except),
      (b) => ({ start: b.createdAt, end: b.buildConcludedAt }),
      (b) => b.concluded === true && (b.success === true || b.status === "SUCCESS"),
    );
  }

  iterate(
    projectId: string,
    serviceId: string,
    query: CursorListQuery = {},
    options?: CallOptions,
  ): AsyncGenerator<Build> {
    return iterateItems(
      (q) => this.list(projectId, serviceId, q, options),
      query,
      this.core.walk(path`/v1/projects/${projectId}/services/${serviceId}/build`, options),
    );
  }

  async abort(projectId: string, serviceId: string, buildId: string, options?: CallOptions): Promise<void> {
    const at = path`/v1/projects/${projectId}/services/${serviceId}/build/${buildId}`;
    await this.core.call({ method: "DELETE", path: at, response: emptyData }, options);
  }

  async logs(
    projectId: string,
    serviceId: string,
    query: BuildLogQuery,
    options?: CallOptions,
  ): Promise<LogLine[]> {
    const at = path`/v1/projects/${projectId}/services/${serviceId}/build-logs`;
    const q = this.core.check(buildLogQuery, query, "GET", at, "query");
    return (await this.core.call({ method: "GET", path: at, query: q, response: logsResponse }, options))
      .data;
  }

  /** Follows a build's logs forward; call `next()` while waiting and once more after it concludes. */
  followLogs(
    projectId: string,
    serviceId: string,
    buildId: string,
    follow: LogFollowerOptions,
    options?: CallOptions,
  ): LogFollower {
    return new LogFollower(
      (query, signal) => this.logs(projectId, serviceId, { ...query, buildId }, withSignal(options, signal)),
      follow,
      this.core.transport,
    );
  }

  /**
   * Deprecated by the platform (use the service read): the build arguments the service sees.
   */
  async getBuildArguments(
    projectId: string,
    serviceId: string,
    query: BuildArgumentsQuery = {},
    options?: CallOptions,
  ) {
    const at = path`/v1/projects/${projectId}/services/${serviceId}/build-arguments`;
    const q = this.core.check(buildArgumentsQuery, query, "GET", at, "query");
    return (
      await this.core.call({ method: "GET", path: at, query: q, response: buildArgumentsResponse }, options)
    ).data;
  }

  /** Polls the build until `concluded`; resolves to the final build, successful or not. */
  waitFor(
    projectId: string,
    serviceId: string,
    buildId: string,
    options: WaitOptions<Build> & CallOptions = {},
  ): Promise<Build> {
    const at = path`/v1/projects/${projectId}/services/${serviceId}/build/${buildId}`;
    return this.core.waitUntil(
      `build ${buildId}`,
      at,
      (o) => this.get(projectId, serviceId, buildId, o),
      buildConclusion,
      options,
    );
  }
}
