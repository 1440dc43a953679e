import type { CreditBalance, UsageEntry } from "@cwp/client";
import type { Cluster, Filters, Granularity, Totals } from "./collect.js";
import { Decimal } from "./decimal.js";
import { addUsage, type GroupBy, noUsage, type Row, topRows, type Usage } from "./group.js";
import type { Period } from "./period.js";

// The report as data: what every format renders. Money stays Decimal until rendered.

export const SCHEMA_VERSION = 1;

export interface ShownRow extends Row {
  previous: Decimal | undefined;
}
export interface TrendPoint {
  start: string;
  end: string;
  /** The total the platform returned for the bucket. */
  total: Decimal;
  /** The bucket's rows of the groups shown in the report (not every group: a bucket is dropped once read). */
  rows: Map<string, Row>;
}

/** What the report is built from, every usage list already folded. */
export interface Collected {
  currency: string;
  scope: Record<string, unknown> | undefined;
  current: Totals;
  previous: Totals | undefined;
  trend: TrendPoint[];
  credit: CreditBalance | undefined;
  clusters: Cluster[] | undefined;
  requests: number;
}

/** The keys of the groups the report shows by name (the top rows, without "other"). */
export const shownKeys = (current: Totals, top: number): Set<string> =>
  new Set(topRows(current.rows.values(), top).map((r) => r.key));

/** A trend bucket as the report keeps it: its returned total and the shown groups' rows. */
export function trendPoint(entry: UsageEntry, bucketRows: Map<string, Row>, keep: Set<string>): TrendPoint {
  return {
    start: String(entry.window?.start ?? entry.timestamp ?? ""),
    end: String(entry.window?.end ?? ""),
    total: Decimal.from(entry.total),
    rows: new Map([...bucketRows].filter(([key]) => keep.has(key))),
  };
}
export interface Budget {
  amount: Decimal;
  usedPercent: Decimal | undefined;
  warnPercent: number;
  state: "under" | "warning" | "over";
}
export interface Report {
  generatedAt: string;
  period: Period;
  granularity: Granularity;
  groupBy: GroupBy;
  filters: Filters;
  currency: string;
  scope: Record<string, unknown> | undefined;
  /** The total the platform returned (summed over 366-day windows when longer). */
  total: Decimal;
  previousTotal: Decimal | undefined;
  change: Decimal | undefined;
  changePercent: Decimal | undefined;
  rows: ShownRow[];
  /** Every group, for the details and the files. */
  allRows: ShownRow[];
  usage: Usage;
  /** The returned total minus the rows as shown (rounded to cents): the rounding footnote. */
  gap: Decimal;
  trend: TrendPoint[];
  budget: Budget | undefined;
  credit: CreditBalance | undefined;
  clusters: Cluster[] | undefined;
  requests: number;
}

export function buildReport(
  data: Collected,
  options: {
    period: Period;
    granularity: Granularity;
    groupBy: GroupBy;
    filters: Filters;
    top: number;
    budget?: Decimal | undefined;
    warnPercent: number;
    now: number;
  },
): Report {
  const current = data.current.rows;
  const previous = data.previous?.rows;
  const withPrevious = (row: Row, keys: string[]): ShownRow => ({
    ...row,
    previous: previous ? Decimal.sum(keys.map((k) => previous.get(k)?.cost ?? Decimal.zero)) : undefined,
  });
  const shown = topRows(current.values(), options.top);
  const inTop = new Set(shown.map((r) => r.key));
  const otherKeys = [...current.values()]
    .filter((r) => r.kind === "group" && !inTop.has(r.key))
    .map((r) => r.key);
  const rows = shown.map((r) => withPrevious(r, r.key === "other" ? otherKeys : [r.key]));
  const allRows = [...current.values()]
    .sort((a, b) => b.cost.compare(a.cost))
    .map((r) => withPrevious(r, [r.key]));
  const total = data.current.total;
  const previousTotal = data.previous?.total;
  const change = previousTotal ? total.minus(previousTotal) : undefined;
  const shownSum = Decimal.sum(rows.map((r) => r.cost.round(2)));
  const usedPercent = options.budget ? total.percentOf(options.budget, 1) : undefined;
  return {
    generatedAt: new Date(options.now).toISOString(),
    period: options.period,
    granularity: options.granularity,
    groupBy: options.groupBy,
    filters: options.filters,
    currency: data.currency,
    scope: data.scope,
    total,
    previousTotal,
    change,
    changePercent: change && previousTotal ? change.percentOf(previousTotal, 1) : undefined,
    rows,
    allRows,
    usage: [...current.values()].reduce((u, r) => addUsage(u, r.usage), noUsage()),
    gap: total.minus(shownSum),
    trend: data.trend,
    budget: options.budget
      ? {
          amount: options.budget,
          usedPercent,
          warnPercent: options.warnPercent,
          state:
            total.compare(options.budget) > 0
              ? "over"
              : usedPercent && usedPercent.compare(Decimal.from(options.warnPercent)) >= 0
                ? "warning"
                : "under",
        }
      : undefined,
    credit: data.credit,
    clusters: data.clusters,
    requests: data.requests,
  };
}
