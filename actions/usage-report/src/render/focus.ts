import type { UsageEntry } from "@cwp/client";
import { Decimal, decimalText } from "../decimal.js";
import { componentSum } from "../group.js";
import { csvCell, csvLine } from "./csv.js";

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

export const FOCUS_HEADER = csvLine(COLUMNS);
/** The columns between the amounts and ChargeDescription: the same for every row of an entry. */
const PERIOD_COLUMNS = [
  "BillingCurrency",
  "BillingAccountId",
  "BillingPeriodStart",
  "BillingPeriodEnd",
  "ChargePeriodStart",
  "ChargePeriodEnd",
  "ChargeCategory",
  "ChargeFrequency",
] as const;
/** Cells escaped and joined, as a part of a line. */
const cells = (values: readonly string[]) => values.map(csvCell).join(",");
const line = (row: FocusRow) => csvLine(COLUMNS.map((c) => row[c] ?? ""));

/**
 * The lines of focus.csv for one usage entry, written as the entry is read (a year of a large
 * organisation is tens of millions of rows). The cells shared by many rows (the period, the team,
 * the project, the resource type) are escaped once; each row adds only its own.
 */
export function* focusEntryLines(
  entry: UsageEntry,
  context: { currency: string; accountId: string; names: Map<string, string> },
): Generator<string> {
  const start = iso(entry.window?.start ?? entry.timestamp);
  const end = iso(entry.window?.end ?? (entry.timestamp !== undefined ? entry.timestamp + 3600 : undefined));
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
  const period = cells(PERIOD_COLUMNS.map((c) => common[c] ?? ""));
  const providers = cells([PROVIDER, PROVIDER, PROVIDER]);
  const name = (id: string) => context.names.get(id) ?? id;
  for (const team of entry.paas.teams ?? []) {
    const teamCells = cells([team.id, name(team.id)]);
    for (const project of team.projects ?? []) {
      const projectCells = cells([project.id, name(project.id)]);
      for (const group of project.resources ?? []) {
        const type = group.resourceType;
        const components = COMPONENTS.map(([price, usage, unit, category]) => ({
          price,
          usage,
          description: csvCell(`${type} ${price}`),
          unit: csvCell(unit),
          // ResourceType, ServiceCategory, ServiceName (after ResourceId).
          tail: cells([type, category, `PaaS ${type}`]),
        }));
        for (const item of group.items) {
          const id = csvCell(item.id);
          for (const c of components) {
            const cost = item.price?.[c.price];
            if (cost === undefined || cost === 0) continue;
            const amount = csvCell(decimalText(cost));
            const quantity = csvCell(decimalText(item.usage?.[c.usage] ?? 0));
            yield `${amount},${amount},${period},${c.description},${quantity},${c.unit},${id},${c.tail},${teamCells},${providers},${projectCells}\n`;
          }
        }
      }
    }
  }
  for (const [field, description, category] of CUSTOMER) {
    const node = entry[field];
    if (!node?.price || node.price.total === 0) continue;
    const amount = (componentSum(node.price) ?? Decimal.from(node.price.total)).toFixed();
    yield line({
      ...common,
      BilledCost: amount,
      EffectiveCost: amount,
      ChargeDescription: description,
      ServiceCategory: category,
      ServiceName: description,
    });
  }
}
