import type { UsageEntry } from "@cwp/client";
import { Decimal } from "../decimal.js";
import { componentSum } from "../group.js";
import { csvCell, csvLine } from "./csv.js";
import type { LineFile } from "./line-file.js";

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
const PERIOD_COLUMNS = COLUMNS.slice(
  COLUMNS.indexOf("BillingCurrency"),
  COLUMNS.indexOf("ChargeDescription"),
);
/** Cells escaped and joined, as a part of a line. */
const cells = (values: readonly string[]) => values.map(csvCell).join(",");
const encoded = (text: string) => Buffer.from(text);
const line = (row: FocusRow) => csvLine(COLUMNS.map((c) => row[c] ?? ""));

type FocusContext = { currency: string; accountId: string; names: Map<string, string> };
type Team = NonNullable<UsageEntry["paas"]["teams"]>[number];

/** What every row of one usage entry (one charge period) shares, as a row and as escaped cells. */
export interface FocusPeriod {
  common: FocusRow;
  /** The columns between the amounts and ChargeDescription, escaped, joined and encoded. */
  cells: Uint8Array;
}

/** The charge period of an entry, from its window (or its hour's timestamp). */
function chargePeriod(
  at: { window?: UsageEntry["window"]; timestamp?: number | undefined },
  context: FocusContext,
): FocusPeriod {
  const start = iso(at.window?.start ?? at.timestamp);
  const end = iso(at.window?.end ?? (at.timestamp !== undefined ? at.timestamp + 3600 : undefined));
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
  return { common, cells: encoded(`,${cells(PERIOD_COLUMNS.map((c) => common[c] ?? ""))},`) };
}

const PROVIDERS = cells([PROVIDER, PROVIDER, PROVIDER]);
const COMMA = encoded(",");

/** The cells a row of one price component of one resource type shares with every other. */
interface ComponentCells {
  price: (typeof COMPONENTS)[number][0];
  usage: (typeof COMPONENTS)[number][1];
  /** ChargeDescription and the comma after it. */
  description: Uint8Array;
  /** ConsumedUnit between commas. */
  unit: Uint8Array;
  /** ResourceType, ServiceCategory and ServiceName, between commas. */
  type: Uint8Array;
}

/**
 * focus.csv, written as the usage is read (a year of a large organisation is tens of millions of
 * rows): per team, one row per resource and price component, then per entry its customer-level
 * charges. A team's rows are written in pieces: the cells a row shares with many rows (the period,
 * the resource type and component, the team and project) are escaped and encoded once; only its
 * amounts and resource id are its own. Amounts need no escaping: decimal text never does.
 */
export class FocusWriter {
  readonly #types = new Map<string, ComponentCells[]>();

  constructor(
    private readonly file: LineFile,
    private readonly context: FocusContext,
  ) {}

  /** The charge period of an entry (what its rows share), from its window or its hour's timestamp. */
  period(at: { window?: UsageEntry["window"]; timestamp?: number | undefined }): FocusPeriod {
    return chargePeriod(at, this.context);
  }

  /** A team's rows, then the disk's pace. */
  async team(team: Team, period: FocusPeriod): Promise<void> {
    const { file } = this;
    const name = (id: string) => this.context.names.get(id) ?? id;
    const teamCells = cells([team.id, name(team.id)]);
    for (const project of team.projects ?? []) {
      const after = encoded(`${teamCells},${PROVIDERS},${cells([project.id, name(project.id)])}\n`);
      for (const group of project.resources ?? []) {
        const components = this.#components(group.resourceType);
        for (const item of group.items) {
          const id = csvCell(item.id);
          for (const c of components) {
            const cost = item.price?.[c.price];
            if (cost === undefined || cost === 0) continue;
            file.decimal(cost);
            file.bytes(COMMA);
            file.decimal(cost);
            file.bytes(period.cells);
            file.bytes(c.description);
            file.decimal(item.usage?.[c.usage] ?? 0);
            file.bytes(c.unit);
            file.text(id);
            file.bytes(c.type);
            file.bytes(after);
          }
        }
      }
    }
    await file.drained();
  }

  /** An entry's customer-level charges, after its teams' rows. */
  async customer(entry: UsageEntry, period: FocusPeriod): Promise<void> {
    await this.file.writeAll(customerLines(entry, period));
  }

  #components(type: string): ComponentCells[] {
    let known = this.#types.get(type);
    if (!known) {
      known = COMPONENTS.map(([price, usage, unit, category]) => ({
        price,
        usage,
        description: encoded(`${csvCell(`${type} ${price}`)},`),
        unit: encoded(`,${csvCell(unit)},`),
        type: encoded(`,${cells([type, category, `PaaS ${type}`])},`),
      }));
      this.#types.set(type, known);
    }
    return known;
  }
}

/** The lines of focus.csv for an entry's customer-level charges. */
function* customerLines(entry: UsageEntry, period: FocusPeriod): Generator<string> {
  for (const [field, description, category] of CUSTOMER) {
    const node = entry[field];
    if (!node?.price || node.price.total === 0) continue;
    const amount = (componentSum(node.price) ?? Decimal.from(node.price.total)).toFixed();
    yield line({
      ...period.common,
      BilledCost: amount,
      EffectiveCost: amount,
      ChargeDescription: description,
      ServiceCategory: category,
      ServiceName: description,
    });
  }
}
