import { createHash } from "node:crypto";
import { METRIC_TYPES } from "../rules/observability.js";
import type { Container } from "./containers.js";
import { parseTime } from "./logs.js";

// Metrics (spec 2.12, 4.7): one series per container and metric type, range or single.

const UNITS: Record<string, string> = {
  cpu: "vCPU",
  memory: "mb",
  networkIngress: "kbps",
  networkEgress: "kbps",
  tcpConnectionsOpen: "count",
  diskUsage: "pct",
  requests: "rps",
  http4xxResponses: "count",
  http5xxResponses: "count",
  bandwidth: "kbps",
  bandwidthVolume: "mb",
};
/** A database's own metrics: its disk and connections, which services do not report. */
const DATABASE_ONLY = new Set<string>(["tcpConnectionsOpen", "diskUsage"]);
/** Traffic at the edge, which only services report. */
const HTTP_ONLY = new Set<string>([
  "requests",
  "http4xxResponses",
  "http5xxResponses",
  "bandwidth",
  "bandwidthVolume",
]);
export const SERVICE_METRICS = METRIC_TYPES.filter((t) => !DATABASE_ONLY.has(t));
export const ADDON_METRICS = METRIC_TYPES.filter((t) => !HTTP_ONLY.has(t));

const SCALE: Record<string, number> = { cpu: 1, memory: 2048, diskUsage: 100, tcpConnectionsOpen: 200 };
const MAX_POINTS = 500;

export interface MetricQueryParams {
  queryType?: "range" | "single" | undefined;
  metricTypes?: string[] | undefined;
  startTime?: string | undefined;
  endTime?: string | undefined;
  duration?: number | undefined;
  time?: string | undefined;
}

function value(container: Container, metric: string, at: number): number {
  const n = createHash("sha256").update(`${container.podName}:${metric}:${at}`).digest().readUInt32BE(0);
  const daily = 0.6 + 0.4 * Math.sin((at / 86_400_000) * 2 * Math.PI);
  return Math.round((SCALE[metric] ?? 500) * daily * (0.5 + (n % 1000) / 2000) * 1000) / 1000;
}

export function metrics(
  containers: readonly Container[],
  allowed: readonly string[],
  q: MetricQueryParams,
  now: number,
) {
  const types = q.metricTypes ?? allowed;
  let instants: number[];
  let resolution: number;
  if (q.queryType === "single") {
    instants = [q.time === undefined ? now : parseTime(q.time, "time")];
    resolution = 0;
  } else {
    const span = (q.duration ?? 3600) * 1000;
    const start = q.startTime === undefined ? undefined : parseTime(q.startTime, "startTime");
    const end = q.endTime === undefined ? undefined : parseTime(q.endTime, "endTime");
    const from = start ?? (end ?? now) - span;
    const to = end ?? (start !== undefined && q.duration !== undefined ? start + span : now);
    resolution = Math.max(60, Math.ceil((to - from) / 1000 / MAX_POINTS / 60) * 60);
    const first = Math.ceil(from / (resolution * 1000)) * resolution * 1000;
    instants = [];
    for (let at = first; at <= to; at += resolution * 1000) instants.push(at);
  }
  const data: Record<string, unknown> = {};
  for (const metric of types.filter((t) => allowed.includes(t))) {
    data[metric] = {
      metricInfo: { metricId: metric, metricUnit: UNITS[metric], metricResolution: resolution },
      values: containers.map((c) => ({
        metadata: {
          containerId: c.podName,
          ...(metric === "diskUsage" ? { volumeId: `${c.name}-data` } : {}),
        },
        data: instants.map((at) => ({ value: value(c, metric, at), ts: new Date(at).toISOString() })),
      })),
    };
  }
  return { data };
}
