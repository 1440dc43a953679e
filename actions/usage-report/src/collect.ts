import {
  type CreditBalance,
  type CwpClient,
  PermissionError,
  parseTimestamp,
  type ResourceType,
  type UsageEntry,
  type UsageListQuery,
} from "@cwp/client";
import { Decimal } from "./decimal.js";
import { componentSum } from "./group.js";
import { type Period, totalWindows, type Window } from "./period.js";

// Every request the report makes, planned for the fewest: one `total` per window of at most 366
// days (the period, and the previous one), the trend list at its largest page, the credit balance
// when the scope has one, names only for the grouping shown, and invoice details only where BYOC
// clusters exist (whole invoiced months).

export type Granularity = "hour" | "day" | "month";
export type GroupBy = "team" | "project" | "resource-type" | "resource";

export interface Filters {
  teamId?: string | undefined;
  projectId?: string | undefined;
  resourceType?: ResourceType | undefined;
}

export interface Cluster {
  id: string;
  name: string;
  amount: Decimal;
}

export interface Collected {
  currency: string;
  /** Set when a team token reads billing through its organisation. */
  scope: Record<string, unknown> | undefined;
  /** The `total` entries of the period, one per window, and the sum of their returned totals. */
  current: { entries: UsageEntry[]; total: Decimal };
  previous: { entries: UsageEntry[]; total: Decimal } | undefined;
  trend: UsageEntry[];
  credit: CreditBalance | undefined;
  clusters: Cluster[] | undefined;
  names: Map<string, string>;
  requests: number;
}

const MAX_PER_PAGE: Record<Granularity, number> = { hour: 100, day: 100, month: 12 };

export async function collect(
  client: CwpClient,
  options: {
    period: Period;
    granularity: Granularity;
    filters: Filters;
    compare: boolean;
    groupBy: GroupBy;
    signal: AbortSignal;
    deadline: number;
  },
): Promise<Collected> {
  let requests = 0;
  const call = { signal: options.signal, deadline: options.deadline };
  const counted = async <T>(request: Promise<T>): Promise<T> => {
    requests += 1;
    return request;
  };
  const filters = Object.fromEntries(
    Object.entries(options.filters).filter(([, v]) => v !== undefined),
  ) as Filters;
  let currency: string | undefined;
  let scope: Record<string, unknown> | undefined;

  async function totals(window: Window) {
    const entries: UsageEntry[] = [];
    let total = Decimal.zero;
    for (const w of totalWindows(window)) {
      const page = await counted(
        client.billing.listUsage(
          { granularity: "total", startTime: w.start, endTime: w.end, ...filters } as UsageListQuery,
          call,
        ),
      );
      currency ??= page.data.currency;
      scope ??= page.data.scope as Record<string, unknown> | undefined;
      for (const entry of page.data.usage) {
        entries.push(entry);
        total = total.plus(Decimal.from(entry.total));
      }
    }
    return { entries, total };
  }

  const current = await withTeamFilterHint(filters, () => totals(options.period));
  const previous = options.compare ? await totals(options.period.previous) : undefined;

  const trend: UsageEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await counted(
      client.billing.listUsage(
        {
          granularity: options.granularity,
          startTime: options.period.start,
          endTime: options.period.end,
          perPage: MAX_PER_PAGE[options.granularity],
          ...filters,
          ...(cursor ? { cursor } : {}),
        } as UsageListQuery,
        call,
      ),
    );
    trend.push(...page.data.usage);
    cursor = page.pagination.hasNextPage ? (page.pagination.cursor ?? undefined) : undefined;
  } while (cursor);

  // A team billed through its organisation has no credit balance of its own (spec 5.4).
  const credit = scope ? undefined : await counted(client.billing.getCreditBalance(call));
  const customerLevel = current.entries.some((e) => e.byoc !== undefined);
  const clusters =
    customerLevel && holdsWholeMonth(options.period)
      ? await invoiceClusters(client, options.period, counted, call)
      : undefined;
  const names = await groupNames(client, options.groupBy, counted, call);
  return { currency: currency ?? "", scope, current, previous, trend, credit, clusters, names, requests };
}

/** A team token that sends `teamId` gets 403: say which input to drop. */
async function withTeamFilterHint<T>(filters: Filters, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof PermissionError && filters.teamId !== undefined)
      throw new Error(
        `${error.message}. team-uid is for organisation tokens: a team token's billing is already its team's, so leave team-uid empty.`,
      );
    throw error;
  }
}

/** Whether a whole calendar month (an invoice) lies inside the period. */
function holdsWholeMonth(period: Window): boolean {
  const d = new Date(period.start * 1000);
  const first =
    d.getUTCDate() === 1 && d.getUTCHours() === 0
      ? period.start
      : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
  const f = new Date(first * 1000);
  return Date.UTC(f.getUTCFullYear(), f.getUTCMonth() + 1, 1) / 1000 <= period.end;
}

/** BYOC cluster allocations, from the invoices of the whole months inside the period. */
async function invoiceClusters(
  client: CwpClient,
  period: Period,
  counted: <T>(p: Promise<T>) => Promise<T>,
  call: { signal: AbortSignal; deadline: number },
): Promise<Cluster[] | undefined> {
  const inside: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await counted(
      client.billing.listInvoices({ perPage: 100, ...(cursor ? { cursor } : {}) }, call),
    );
    for (const invoice of page.items) {
      const start = parseTimestamp(invoice.periodStart);
      const end = parseTimestamp(invoice.periodEnd);
      if (
        start !== undefined &&
        end !== undefined &&
        start / 1000 >= period.start &&
        end / 1000 <= period.end
      )
        inside.push(invoice.id);
    }
    // Newest first: once the page reaches before the period, older pages cannot hold it.
    const oldest = parseTimestamp(page.items.at(-1)?.periodStart);
    cursor =
      page.pagination.hasNextPage && oldest !== undefined && oldest / 1000 > period.start
        ? (page.pagination.cursor ?? undefined)
        : undefined;
  } while (cursor);
  if (inside.length === 0) return undefined;
  const byId = new Map<string, Cluster>();
  for (const id of inside) {
    const detail = await counted(client.billing.getInvoice(id, { teamsPerPage: 1 }, call));
    for (const c of detail.data.byoc?.clusters ?? []) {
      const amount = componentSum(c.price) ?? Decimal.zero;
      const known = byId.get(c.id);
      byId.set(c.id, {
        id: c.id,
        name: c.name ?? c.id,
        amount: (known?.amount ?? Decimal.zero).plus(amount),
      });
    }
  }
  return [...byId.values()];
}

async function groupNames(
  client: CwpClient,
  groupBy: GroupBy,
  counted: <T>(p: Promise<T>) => Promise<T>,
  call: { signal: AbortSignal; deadline: number },
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (groupBy === "resource-type") return names;
  const list =
    groupBy === "team"
      ? (q: { cursor?: string }) => client.teams.list({ per_page: 100, ...q }, call)
      : (q: { cursor?: string }) => client.projects.list({ per_page: 100, ...q }, call);
  let cursor: string | undefined;
  do {
    const page = await counted(list(cursor ? { cursor } : {}));
    for (const item of page.items) names.set(item.uid, item.name ?? item.id);
    cursor = page.pagination.hasNextPage ? (page.pagination.cursor ?? undefined) : undefined;
  } while (cursor);
  return names;
}
