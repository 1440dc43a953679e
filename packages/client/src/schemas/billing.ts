import { z } from "zod";
import { openEnum, timestamp, uid } from "./shared.js";

// Spec 2.2 and 4.1. Field names the spec leaves "not shown" (price and usage members, invoice
// period and amounts) are the ones this project settled on; every schema keeps unknown fields.

export const RESOURCE_TYPES = ["job", "service", "harness", "addon", "volume"] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];
export const GRANULARITIES = ["hour", "day", "month", "total"] as const;
export type Granularity = (typeof GRANULARITIES)[number];
export const INVOICE_STATUSES = ["draft", "open", "payment_failed", "paid", "uncollectible", "void"] as const;
export const BILLING_PAGE_UNITS = [
  "hours",
  "days",
  "months",
  "total",
  "teams",
  "projects",
  "resources",
] as const;

const SECONDS_IN_366_DAYS = 366 * 24 * 3600;

// ---- Requests ---------------------------------------------------------------------------------

const unixSeconds = () => z.number().int().min(0);

export const usageListQuery = z
  .strictObject({
    granularity: z.enum(GRANULARITIES).optional(),
    startTime: unixSeconds().optional(),
    endTime: unixSeconds().optional(),
    perPage: z.number().int().min(1).optional(),
    cursor: z.string().min(1).optional(),
    teamId: uid().optional(),
    projectId: uid().optional(),
    resourceType: z.enum(RESOURCE_TYPES).optional(),
  })
  .superRefine((q, ctx) => {
    const granularity = q.granularity ?? "hour";
    const maxPerPage = granularity === "month" ? 12 : 100;
    if (q.perPage !== undefined && q.perPage > maxPerPage) {
      ctx.addIssue({
        code: "custom",
        path: ["perPage"],
        message: `at most ${maxPerPage} for granularity ${granularity}`,
      });
    }
    if (q.startTime !== undefined && q.endTime !== undefined && q.endTime <= q.startTime) {
      ctx.addIssue({ code: "custom", path: ["endTime"], message: "must be later than startTime" });
    }
    if (granularity === "total") {
      if (q.startTime === undefined)
        ctx.addIssue({ code: "custom", path: ["startTime"], message: "required for granularity total" });
      if (q.endTime === undefined)
        ctx.addIssue({ code: "custom", path: ["endTime"], message: "required for granularity total" });
      if (
        q.startTime !== undefined &&
        q.endTime !== undefined &&
        q.endTime - q.startTime > SECONDS_IN_366_DAYS
      ) {
        ctx.addIssue({
          code: "custom",
          path: ["endTime"],
          message: "a total window is at most 366 days; sum longer periods over consecutive windows",
        });
      }
    }
  });
export type UsageListQuery = z.input<typeof usageListQuery>;

const pageNumber = () => z.number().int().min(1).optional();
const drillPageSize = () => z.number().int().min(1).max(100).optional();

export const drillDownQuery = z.strictObject({
  teamId: uid().optional(),
  projectId: uid().optional(),
  resourceType: z.enum(RESOURCE_TYPES).optional(),
  teamsPage: pageNumber(),
  teamsPerPage: drillPageSize(),
  projectsPage: pageNumber(),
  projectsPerPage: drillPageSize(),
  resourcesPage: pageNumber(),
  resourcesPerPage: drillPageSize(),
});
export type DrillDownQuery = z.input<typeof drillDownQuery>;

export const invoiceListQuery = z.strictObject({
  perPage: z.number().int().min(1).max(100).optional(),
  cursor: z.string().min(1).optional(),
});
export type InvoiceListQuery = z.input<typeof invoiceListQuery>;

// ---- Responses --------------------------------------------------------------------------------

/** Quantities, never money: vCPU-hours, memory GiB-hours, storage GiB-hours, GPU-hours. */
export const usageQuantities = z.looseObject({
  vcpuHours: z.number().optional(),
  memoryGibHours: z.number().optional(),
  storageGibHours: z.number().optional(),
  gpuHours: z.number().optional(),
});
/** `total` is rounded to two decimals; component prices keep more precision. */
export const price = z.looseObject({
  total: z.number(),
  cpu: z.number().optional(),
  memory: z.number().optional(),
  storage: z.number().optional(),
  gpu: z.number().optional(),
});
const priced = { price: price.optional(), usage: usageQuantities.optional() };

export const paasItem = z.looseObject({ id: z.string(), ...priced });
export const paasResourceGroup = z.looseObject({
  resourceType: openEnum(RESOURCE_TYPES),
  items: z.array(paasItem),
});
export const paasProject = z.looseObject({
  id: z.string(),
  ...priced,
  resources: z.array(paasResourceGroup).optional(),
});
export const paasTeam = z.looseObject({
  id: z.string(),
  ...priced,
  projects: z.array(paasProject).optional(),
});
export type PaasTeam = z.infer<typeof paasTeam>;
export const paas = z.looseObject({ ...priced, teams: z.array(paasTeam).optional() });
export const byocCluster = z.looseObject({ id: z.string(), name: z.string().optional(), ...priced });
export const byoc = z.looseObject({ ...priced, clusters: z.array(byocCluster).optional() });
export const meteredCategory = z.looseObject({ ...priced });

const categories = {
  paas,
  byoc: byoc.optional(),
  egressIp: meteredCategory.optional(),
  loadBalancer: meteredCategory.optional(),
  total: z.number(),
  scope: z.looseObject({}).optional(),
};

export const billingPagination = z.looseObject({
  hasNextPage: z.boolean().nullish(),
  cursor: z.string().nullish(),
  count: z.number().optional(),
  unit: openEnum(BILLING_PAGE_UNITS).optional(),
});

export const usageEntry = z.looseObject({
  ...categories,
  /** Unix seconds of the billing hour (hour granularity); the key for the hour detail. */
  timestamp: z.number().optional(),
  window: z.looseObject({ start: timestamp(), end: timestamp() }).optional(),
});
export type UsageEntry = z.infer<typeof usageEntry>;

export const usageListResponse = z.looseObject({
  data: z.looseObject({
    currency: z.string().optional(),
    usage: z.array(usageEntry),
    scope: z.looseObject({}).optional(),
  }),
  pagination: billingPagination.optional(),
});
export type UsageListResponse = z.infer<typeof usageListResponse>;

export const usageDetailResponse = z.looseObject({
  data: z.looseObject({ ...categories, currency: z.string().optional(), timestamp: z.number().optional() }),
  pagination: billingPagination.optional(),
});
export type UsageDetailResponse = z.infer<typeof usageDetailResponse>;

export const invoice = z.looseObject({
  id: z.string(),
  status: openEnum(INVOICE_STATUSES),
  currency: z.string().optional(),
  periodStart: timestamp().optional(),
  periodEnd: timestamp().optional(),
  total: z.number().optional(),
  tax: z.number().optional(),
  discount: z.number().optional(),
  scope: z.looseObject({}).optional(),
});
export type Invoice = z.infer<typeof invoice>;

export const invoiceListResponse = z.looseObject({
  data: z.looseObject({ invoices: z.array(invoice) }),
  pagination: billingPagination.optional(),
});
export type InvoiceListResponse = z.infer<typeof invoiceListResponse>;

export const invoiceDetailResponse = z.looseObject({
  data: invoice.extend(categories),
  pagination: billingPagination.optional(),
});
export type InvoiceDetailResponse = z.infer<typeof invoiceDetailResponse>;

export const creditBalanceResponse = z.looseObject({
  data: z.looseObject({
    currency: z.string(),
    total: z.looseObject({ available: z.number(), pending: z.number() }),
    grants: z.looseObject({ available: z.number(), pending: z.number() }),
    /** Positive is credit; negative is money owed (shown through unpaid invoices). */
    customerBalance: z.looseObject({ amount: z.number() }),
    lastSyncedAt: timestamp(),
  }),
});
export type CreditBalance = z.infer<typeof creditBalanceResponse>["data"];
