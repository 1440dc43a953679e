import { type CallOptions, type Core, withSignal } from "../core/core.js";
import { path } from "../core/path.js";
import { LogFollower, type LogFollowerOptions } from "../logs/follower.js";
import {
  type AddonMetricsQuery,
  addonMetricsQuery,
  type ContainerLogQuery,
  containerLogQuery,
  type LogLine,
  type LogQuery,
  logQuery,
  logsResponse,
  type Metrics,
  metricsResponse,
  type ServiceMetricsQuery,
  serviceMetricsQuery,
} from "../schemas/observability.js";

/** Logs and metrics. Build and job-run logs live with builds and jobs. */
export class Observability {
  constructor(private readonly core: Core) {}

  /** Logs of any container (`GET /v1/logs`). */
  async logs(query: ContainerLogQuery = {}, options?: CallOptions): Promise<LogLine[]> {
    const q = this.core.check(containerLogQuery, query, "GET", "/v1/logs", "query");
    return (
      await this.core.call({ method: "GET", path: "/v1/logs", query: q, response: logsResponse }, options)
    ).data;
  }

  async serviceLogs(
    projectId: string,
    serviceId: string,
    query: LogQuery = {},
    options?: CallOptions,
  ): Promise<LogLine[]> {
    const at = path`/v1/projects/${projectId}/services/${serviceId}/logs`;
    const q = this.core.check(logQuery, query, "GET", at, "query");
    return (await this.core.call({ method: "GET", path: at, query: q, response: logsResponse }, options))
      .data;
  }

  followServiceLogs(
    projectId: string,
    serviceId: string,
    follow: LogFollowerOptions,
    options?: CallOptions,
  ): LogFollower {
    return new LogFollower(
      (query, signal) => this.serviceLogs(projectId, serviceId, query, withSignal(options, signal)),
      follow,
      this.core.transport,
    );
  }

  /** `metricTypes` is sent as a repeated parameter, one per type. */
  async serviceMetrics(
    projectId: string,
    serviceId: string,
    query: ServiceMetricsQuery = {},
    options?: CallOptions,
  ): Promise<Metrics> {
    const at = path`/v1/projects/${projectId}/services/${serviceId}/metrics`;
    const q = this.core.check(serviceMetricsQuery, query, "GET", at, "query");
    return (await this.core.call({ method: "GET", path: at, query: q, response: metricsResponse }, options))
      .data;
  }

  async addonMetrics(
    projectId: string,
    addonId: string,
    query: AddonMetricsQuery = {},
    options?: CallOptions,
  ): Promise<Metrics> {
    const at = path`/v1/projects/${projectId}/addons/${addonId}/metrics`;
    const q = this.core.check(addonMetricsQuery, query, "GET", at, "query");
    return (await this.core.call({ method: "GET", path: at, query: q, response: metricsResponse }, options))
      .data;
  }
}
