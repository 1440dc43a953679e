import { z } from "zod";
import { intParam, textParam } from "./shared.js";

// Log and metric queries (spec 4.7, 2.12), read from the spec.

/** 2.12: the metric types, and the keys of a metrics answer. */
export const METRIC_TYPES = [
  "cpu",
  "memory",
  "networkIngress",
  "networkEgress",
  "tcpConnectionsOpen",
  "diskUsage",
  "requests",
  "http4xxResponses",
  "http5xxResponses",
  "bandwidth",
  "bandwidthVolume",
] as const;

/** ISO 8601, or Unix seconds as the official CLI sends (beyond-the-seed §4). */
const timeParam = () =>
  z
    .string()
    .refine(
      (v) => /^\d+$/.test(v) || !Number.isNaN(Date.parse(v.replace(" ", "T"))),
      "must be an ISO 8601 date-time or Unix seconds",
    );

type Window = { duration?: number | undefined; startTime?: string | undefined; endTime?: string | undefined };
/** "with `duration`, only one of start/end". */
function durationWithOneEnd(q: Window, ctx: z.RefinementCtx) {
  if (q.duration !== undefined && q.startTime !== undefined && q.endTime !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["duration"],
      message: "with duration, at most one of startTime and endTime",
    });
}

const logParams = {
  queryType: z.literal("range").optional(),
  startTime: timeParam().optional(),
  endTime: timeParam().optional(),
  duration: intParam(1).optional(),
  lineLimit: intParam(1).optional(),
  direction: z.enum(["backward", "forward"]).optional(),
  textIncludes: z.string().optional(),
  textNotIncludes: z.string().optional(),
  regexIncludes: z.string().optional(),
  regexNotIncludes: z.string().optional(),
};
export const logQuery = z.strictObject(logParams).superRefine(durationWithOneEnd);
export type LogQuery = z.output<typeof logQuery>;
export const containerLogQuery = z
  .strictObject({
    ...logParams,
    containerName: textParam().optional(),
    podName: textParam().optional(),
    projectId: textParam().optional(),
    clusterId: textParam().optional(),
  })
  .superRefine(durationWithOneEnd);
export const buildLogQuery = z
  .strictObject({ ...logParams, buildId: textParam() })
  .superRefine(durationWithOneEnd);
export const jobLogQuery = z
  .strictObject({ ...logParams, runId: textParam().optional() })
  .superRefine(durationWithOneEnd);

const metricParams = {
  queryType: z.enum(["range", "single"]).optional(),
  /** Repeated to select several. */
  metricTypes: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(z.array(z.enum(METRIC_TYPES)))
    .optional(),
  startTime: timeParam().optional(),
  endTime: timeParam().optional(),
  duration: intParam(1).optional(),
  containerName: textParam().optional(),
  time: timeParam().optional(),
};
type MetricWindow = Window & { queryType?: string | undefined; time?: string | undefined };
/** startTime/endTime only for `range`; `time` only for `single`. */
function metricRules(q: MetricWindow, ctx: z.RefinementCtx) {
  if (q.queryType === "single") {
    if (q.startTime !== undefined)
      ctx.addIssue({ code: "custom", path: ["startTime"], message: "only for range" });
    if (q.endTime !== undefined)
      ctx.addIssue({ code: "custom", path: ["endTime"], message: "only for range" });
  } else if (q.time !== undefined) {
    ctx.addIssue({ code: "custom", path: ["time"], message: "only for single" });
  }
  durationWithOneEnd(q, ctx);
}
export const serviceMetricsQuery = z
  .strictObject({ ...metricParams, deploymentId: textParam().optional() })
  .superRefine(metricRules);
export const addonMetricsQuery = z.strictObject(metricParams).superRefine(metricRules);
export type MetricsQuery = z.output<typeof serviceMetricsQuery>;
