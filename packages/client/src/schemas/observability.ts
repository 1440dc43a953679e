import { z } from "zod";
import { numeric, timestamp } from "./shared.js";

// Spec 2.12 and 4.7: metrics and logs, and their query parameters.

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
export const METRIC_UNITS = ["pct", "vCPU", "mb", "kbps", "rps", "count"] as const;

/** Log and metric times: ISO 8601 strings (the API also takes Unix seconds). */
const timeParam = () =>
  z
    .string()
    .refine(
      (v) => !Number.isNaN(Date.parse(v)) || /^\d+$/.test(v),
      "must be an ISO 8601 date-time or Unix seconds",
    );

/** `duration` fixes a window, so at most one of startTime/endTime may come with it. */
function durationWithOneEnd(
  q: { duration?: number | undefined; startTime?: string | undefined; endTime?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (q.duration !== undefined && q.startTime !== undefined && q.endTime !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["duration"],
      message: "with duration, give at most one of startTime and endTime",
    });
  }
}

const logQueryShape = {
  queryType: z.literal("range").optional(),
  startTime: timeParam().optional(),
  endTime: timeParam().optional(),
  duration: z.number().int().min(1).optional(),
  lineLimit: z.number().int().min(1).optional(),
  direction: z.enum(["backward", "forward"]).optional(),
  textIncludes: z.string().optional(),
  textNotIncludes: z.string().optional(),
  regexIncludes: z.string().optional(),
  regexNotIncludes: z.string().optional(),
};
export const logQuery = z.strictObject(logQueryShape).superRefine(durationWithOneEnd);
export type LogQuery = z.input<typeof logQuery>;

export const containerLogQuery = z
  .strictObject({
    ...logQueryShape,
    containerName: z.string().min(1).optional(),
    podName: z.string().min(1).optional(),
    projectId: z.string().min(1).optional(),
    clusterId: z.string().min(1).optional(),
  })
  .superRefine(durationWithOneEnd);
export type ContainerLogQuery = z.input<typeof containerLogQuery>;

export const buildLogQuery = z
  .strictObject({ ...logQueryShape, buildId: z.string().min(1) })
  .superRefine(durationWithOneEnd);
export type BuildLogQuery = z.input<typeof buildLogQuery>;

export const jobLogQuery = z
  .strictObject({ ...logQueryShape, runId: z.string().min(1).optional() })
  .superRefine(durationWithOneEnd);
export type JobLogQuery = z.input<typeof jobLogQuery>;

export const logLine = z.looseObject({ containerId: z.string(), log: z.unknown(), ts: z.string() });
export type LogLine = z.infer<typeof logLine>;
export const logsResponse = z.looseObject({ data: z.array(logLine) });

const metricQueryShape = {
  queryType: z.enum(["range", "single"]).optional(),
  metricTypes: z.array(z.enum(METRIC_TYPES)).min(1).optional(),
  startTime: timeParam().optional(),
  endTime: timeParam().optional(),
  duration: z.number().int().min(1).optional(),
  containerName: z.string().min(1).optional(),
  time: timeParam().optional(),
};

function metricRules(
  q: {
    queryType?: string | undefined;
    startTime?: string | undefined;
    endTime?: string | undefined;
    time?: string | undefined;
    duration?: number | undefined;
  },
  ctx: z.RefinementCtx,
) {
  const single = q.queryType === "single";
  if (single) {
    for (const field of ["startTime", "endTime"] as const) {
      if (q[field] !== undefined)
        ctx.addIssue({ code: "custom", path: [field], message: "only for queryType range" });
    }
  } else if (q.time !== undefined) {
    ctx.addIssue({ code: "custom", path: ["time"], message: "only for queryType single" });
  }
  durationWithOneEnd(q, ctx);
}

export const serviceMetricsQuery = z
  .strictObject({ ...metricQueryShape, deploymentId: z.string().min(1).optional() })
  .superRefine(metricRules);
export type ServiceMetricsQuery = z.input<typeof serviceMetricsQuery>;
export const addonMetricsQuery = z.strictObject(metricQueryShape).superRefine(metricRules);
export type AddonMetricsQuery = z.input<typeof addonMetricsQuery>;

export const metricSeries = z.looseObject({
  metricInfo: z
    .looseObject({
      metricId: z.string().nullish(),
      metricUnit: z.string().nullish(),
      metricResolution: z.number().nullish(),
    })
    .nullish(),
  /** A metric type added later may carry another shape: a series without values is none. */
  values: z
    .array(
      z.looseObject({
        metadata: z
          .looseObject({ containerId: z.string().nullish(), volumeId: z.string().nullish() })
          .nullish(),
        data: z.array(z.looseObject({ value: numeric(), ts: timestamp() })),
      }),
    )
    .nullish(),
});
export const metricsResponse = z.looseObject({ data: z.record(z.string(), metricSeries) });
export type Metrics = z.infer<typeof metricsResponse>["data"];
