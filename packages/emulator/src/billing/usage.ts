import { ApiFailure, StreamedArray } from "../http.js";
import { cursorPage } from "../paginate.js";
import type { DrillDownQuery, UsageListQuery } from "../rules/billing.js";
import type { PageShape } from "../settings.js";
import {
  applyFilters,
  customerCategories,
  drillDown,
  drillLevel,
  type Filters,
  isFiltered,
  Sums,
  scopeMeters,
  totalOf,
  wholeTree,
} from "./breakdown.js";
import { HOUR_MS, type Ledger, type Meter } from "./ledger.js";
import { priced, priceMicros } from "./money.js";
import { type BillingScope, refuseTeamFilter, scopeObject } from "./scope.js";

// GET /v1/billing/usage and /v1/billing/usage/{timestamp} (spec 4.1).

type Bucket = [fromHour: number, toHour: number];

/** The buckets of a granularity covering [fromHour, toHour), oldest first. */
function buckets(granularity: string, fromHour: number, toHour: number): Bucket[] {
  if (toHour <= fromHour) return [];
  if (granularity === "total") return [[fromHour, toHour]];
  const out: Bucket[] = [];
  let h = fromHour;
  while (h < toHour) {
    let next: number;
    if (granularity === "hour") next = h + 1;
    else if (granularity === "day") next = (Math.floor(h / 24) + 1) * 24;
    else {
      const d = new Date(h * HOUR_MS);
      next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / HOUR_MS;
    }
    out.push([h, Math.min(next, toHour)]);
    h = next;
  }
  return out;
}

const iso = (hour: number) => new Date(hour * HOUR_MS).toISOString();
export const currentHour = (now: number) => Math.floor(now / HOUR_MS);

function entry(
  ledger: Ledger,
  scope: BillingScope,
  filtered: Meter[],
  bucket: Bucket,
  granularity: string,
  f: Filters,
) {
  const [from, to] = bucket;
  const sums = new Sums(ledger, from, to);
  const paasAmounts = sums.total(filtered);
  const customerLevel = !scope.teamScoped && !isFiltered(f);
  const customer = customerLevel ? customerCategories(ledger, scope.customer, from, to, false) : undefined;
  return {
    ...(granularity === "hour" ? { timestamp: from * 3600 } : {}),
    window: { start: iso(from), end: iso(to) },
    paas: { ...priced(paasAmounts), teams: wholeTree(sums, filtered) },
    ...(customer ? customer.categories : {}),
    total: totalOf(priceMicros(paasAmounts) + (customer?.micros ?? 0)),
  };
}

function* lazyMap<T, U>(items: readonly T[], map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}

export function usageList(
  ledger: Ledger,
  scope: BillingScope,
  q: UsageListQuery,
  now: number,
  shape: PageShape,
) {
  refuseTeamFilter(scope, q.teamId);
  const granularity = q.granularity ?? "hour";
  const filtered = applyFilters(scopeMeters(ledger, scope), q);
  const first = ledger.historyStartHour;
  const last = currentHour(now);
  const fromHour = Math.max(first, q.startTime === undefined ? first : Math.ceil(q.startTime / 3600));
  const toHour = Math.min(last, q.endTime === undefined ? last : Math.ceil(q.endTime / 3600));
  // With a start, pages run forward from it; without one, backward from the end (rule 3).
  const all = buckets(granularity, fromHour, toHour);
  if (q.startTime === undefined) all.reverse();
  const size = q.perPage ?? (granularity === "month" ? 12 : granularity === "total" ? 1 : 50);
  const { start, end, pagination } = cursorPage(all.length, q.cursor, size, shape);
  const page = all.slice(start, end);
  return {
    data: {
      currency: scope.currency,
      ...scopeObject(scope),
      // Entries are made as they are written: a page of 100 days of 50,000 resources is larger
      // than one string can hold.
      usage: new StreamedArray(lazyMap(page, (b) => entry(ledger, scope, filtered, b, granularity, q))),
    },
    pagination: {
      ...pagination,
      unit: { hour: "hours", day: "days", month: "months", total: "total" }[granularity],
    },
  };
}

/** The drill-down shared by usage hours and invoices: scope totals whole, the breakdown paged. */
export function drilledPaas(
  ledger: Ledger,
  scope: BillingScope,
  q: DrillDownQuery,
  from: number,
  to: number,
  shape: PageShape,
) {
  refuseTeamFilter(scope, q.teamId);
  const meters = scopeMeters(ledger, scope);
  const filtered = applyFilters(meters, q);
  const sums = new Sums(ledger, from, to);
  const scopeAmounts = sums.total(meters);
  const { teams, pagination } = drillDown(sums, filtered, drillLevel(scope, q), q, q, shape);
  return { paasMicros: priceMicros(scopeAmounts), paas: { ...priced(scopeAmounts), teams }, pagination };
}

export function usageHour(
  ledger: Ledger,
  scope: BillingScope,
  timestamp: string,
  q: DrillDownQuery,
  now: number,
  shape: PageShape,
) {
  if (!/^\d+$/.test(timestamp))
    throw new ApiFailure(400, "invalid path parameter timestamp", {
      "path.timestamp": ["Unix seconds of a billing hour"],
    });
  const seconds = Number(timestamp);
  const hour = seconds / 3600;
  if (!Number.isInteger(hour) || hour < ledger.historyStartHour || hour >= currentHour(now))
    throw new ApiFailure(404, `no billing hour at ${timestamp}: use a timestamp from the usage list`);
  const { paasMicros, paas, pagination } = drilledPaas(ledger, scope, q, hour, hour + 1, shape);
  const customer = scope.teamScoped
    ? undefined
    : customerCategories(ledger, scope.customer, hour, hour + 1, true);
  return {
    data: {
      currency: scope.currency,
      ...scopeObject(scope),
      timestamp: seconds,
      paas,
      // A PaaS filter narrows only the breakdown, and drops the customer-level categories.
      ...(customer && !isFiltered(q) ? customer.categories : {}),
      total: totalOf(paasMicros + (customer?.micros ?? 0)),
    },
    pagination,
  };
}
