import type { UsageEntry } from "@cwp/client";
import { Decimal } from "../decimal.js";
import { componentSum } from "../group.js";
import { csvLine } from "./csv.js";

// focus.csv: FinOps FOCUS 1.2 column names for the columns that apply to this billing data, one
// row per period × resource × price component (and per customer-level charge). Columns FOCUS
// does not define carry the x_ prefix it reserves for them.

const COLUMNS = [
  "BilledCost",
  "EffectiveCost",
  "BillingCurrency",
  "BillingAccountId",
  "BillingPeriodStart",
  "BillingPeriodEnd",
  "ChargePeriodStart",
  "ChargePeriodEnd",
  "ChargeCategory",
  "ChargeFrequency",
  "ChargeDescription",
  "ConsumedQuantity",
  "ConsumedUnit",
  "ResourceId",
  "ResourceType",
  "ServiceCategory",
  "ServiceName",
  "SubAccountId",
  "SubAccountName",
  "ProviderName",
  "PublisherName",
  "InvoiceIssuerName",
  "x_ProjectId",
  "x_ProjectName",
] as const;
type FocusRow = Partial<Record<(typeof COLUMNS)[number], string>>;

const COMPONENTS = [
  ["cpu", "vcpuHours", "vCPU-Hours", "Compute"],
  ["memory", "memoryGibHours", "GiB-Hours", "Compute"],
  ["storage", "storageGibHours", "GiB-Hours", "Storage"],
  ["gpu", "gpuHours", "GPU-Hours", "Compute"],
] as const;
const CUSTOMER = [
  ["byoc", "Bring your own cloud", "Compute"],
  ["egressIp", "Egress IP", "Networking"],
  ["loadBalancer", "Load balancer", "Networking"],
] as const;
const PROVIDER = "Cloud Workload Platform";

const iso = (t: string | number | undefined) =>
  t === undefined ? "" : /^\d+$/.test(String(t)) ? new Date(Number(t) * 1000).toISOString() : String(t);

function billingMonth(start: string): [string, string] {
  const d = new Date(start);
  return [
    new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString(),
    new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString(),
  ];
}

/** The lines of focus.csv, one at a time (it can hold millions of rows). */
export function* renderFocus(
  entries: readonly UsageEntry[],
  context: { currency: string; accountId: string; names: Map<string, string> },
): Generator<string> {
  yield csvLine(COLUMNS);
  const line = (row: FocusRow) => csvLine(COLUMNS.map((c) => row[c] ?? ""));
  for (const entry of entries) {
    const start = iso(entry.window?.start ?? entry.timestamp);
    const end = iso(
      entry.window?.end ?? (entry.timestamp !== undefined ? entry.timestamp + 3600 : undefined),
    );
    const [billingStart, billingEnd] = billingMonth(start);
    const common: FocusRow = {
      BillingCurrency: context.currency,
      BillingAccountId: context.accountId,
      BillingPeriodStart: billingStart,
      BillingPeriodEnd: billingEnd,
      ChargePeriodStart: start,
      ChargePeriodEnd: end,
      ChargeCategory: "Usage",
      ChargeFrequency: "Usage-Based",
      ProviderName: PROVIDER,
      PublisherName: PROVIDER,
      InvoiceIssuerName: PROVIDER,
    };
    for (const team of entry.paas.teams ?? []) {
      for (const project of team.projects ?? []) {
        for (const group of project.resources ?? []) {
          for (const item of group.items) {
            for (const [price, usage, unit, category] of COMPONENTS) {
              const cost = item.price?.[price];
              if (cost === undefined || cost === 0) continue;
              const amount = Decimal.from(cost).toFixed();
              yield line({
                ...common,
                BilledCost: amount,
                EffectiveCost: amount,
                ChargeDescription: `${group.resourceType} ${price}`,
                ConsumedQuantity: Decimal.from(item.usage?.[usage] ?? 0).toFixed(),
                ConsumedUnit: unit,
                ResourceId: item.id,
                ResourceType: group.resourceType,
                ServiceCategory: category,
                ServiceName: `PaaS ${group.resourceType}`,
                SubAccountId: team.id,
                SubAccountName: context.names.get(team.id) ?? team.id,
                x_ProjectId: project.id,
                x_ProjectName: context.names.get(project.id) ?? project.id,
              });
            }
          }
        }
      }
    }
    for (const [field, name, category] of CUSTOMER) {
      const node = entry[field];
      if (!node?.price || node.price.total === 0) continue;
      const amount = (componentSum(node.price) ?? Decimal.from(node.price.total)).toFixed();
      yield line({
        ...common,
        BilledCost: amount,
        EffectiveCost: amount,
        ChargeDescription: name,
        ServiceCategory: category,
        ServiceName: name,
      });
    }
  }
}
