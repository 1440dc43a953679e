import { z } from "zod";
import { intParam, textParam, UID } from "./shared.js";

// Billing queries (spec 4.1, 8), read from the spec.

const uidParam = () => z.string().regex(UID, "must be a 24-character hexadecimal uid");
/** What billing meters, by the spec's resource types. */
export const RESOURCE_TYPE = ["job", "service", "harness", "addon", "volume"] as const;
export type ResourceType = (typeof RESOURCE_TYPE)[number];
const MAX_TOTAL_WINDOW_S = 366 * 86_400;

export const invoiceListQuery = z.strictObject({
  perPage: intParam(1, 100).optional(),
  cursor: textParam().optional(),
});

export type InvoiceListQuery = z.output<typeof invoiceListQuery>;

export const usageListQuery = z
  .strictObject({
    granularity: z.enum(["hour", "day", "month", "total"]).optional(),
    startTime: intParam(0).optional(),
    endTime: intParam(0).optional(),
    perPage: intParam(1).optional(),
    cursor: textParam().optional(),
    teamId: uidParam().optional(),
    projectId: uidParam().optional(),
    resourceType: z.enum(RESOURCE_TYPE).optional(),
  })
  .superRefine((q, ctx) => {
    const granularity = q.granularity ?? "hour";
    const most = granularity === "month" ? 12 : 100;
    if (q.perPage !== undefined && q.perPage > most)
      ctx.addIssue({ code: "custom", path: ["perPage"], message: `at most ${most} for ${granularity}` });
    if (q.startTime !== undefined && q.endTime !== undefined && q.endTime <= q.startTime)
      ctx.addIssue({
        code: "custom",
        path: ["endTime"],
        message: "must be after startTime (it is exclusive)",
      });
    if (granularity !== "total") return;
    for (const field of ["startTime", "endTime"] as const)
      if (q[field] === undefined)
        ctx.addIssue({ code: "custom", path: [field], message: "required with granularity total" });
    if (q.startTime !== undefined && q.endTime !== undefined && q.endTime - q.startTime > MAX_TOTAL_WINDOW_S)
      ctx.addIssue({ code: "custom", path: ["endTime"], message: "a total window is at most 366 days" });
  });
export type UsageListQuery = z.output<typeof usageListQuery>;

const page = () => intParam(1).optional();
const pageSize = () => intParam(1, 100).optional();
export const drillDownQuery = z.strictObject({
  teamId: uidParam().optional(),
  projectId: uidParam().optional(),
  resourceType: z.enum(RESOURCE_TYPE).optional(),
  teamsPage: page(),
  teamsPerPage: pageSize(),
  projectsPage: page(),
  projectsPerPage: pageSize(),
  resourcesPage: page(),
  resourcesPerPage: pageSize(),
});
export type DrillDownQuery = z.output<typeof drillDownQuery>;
