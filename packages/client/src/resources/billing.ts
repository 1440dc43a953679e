import type { CallOptions, Core } from "../core/core.js";
import type { PageWalk } from "../core/page-walk.js";
import { cursorItems, cursorPages, type Page } from "../core/pagination.js";
import { path } from "../core/path.js";
import {
  type CreditBalance,
  creditBalanceResponse,
  type DrillDownQuery,
  drillDownQuery,
  type Invoice,
  type InvoiceDetailResponse,
  type InvoiceListQuery,
  invoiceDetailResponse,
  invoiceListQuery,
  invoiceListResponse,
  type UsageDetailResponse,
  type UsageEntry,
  type UsageListQuery,
  type UsageListResponse,
  usageDetailResponse,
  usageListQuery,
  usageListResponse,
} from "../schemas/billing.js";
import { LAST_PAGE } from "../schemas/shared.js";
import {
  type StreamOptions,
  type UsagePart,
  usageIdentity,
  usageParts,
  wholeEntries,
} from "./usage-stream.js";

/** The drill-down level a page counts (`pagination.unit`) and the parameter that pages it. */
const DRILL_LEVELS = {
  teams: { page: "teamsPage" },
  projects: { page: "projectsPage" },
  resources: { page: "resourcesPage" },
} as const;

const isDrillLevel = (unit: string | null | undefined): unit is keyof typeof DRILL_LEVELS =>
  typeof unit === "string" && unit in DRILL_LEVELS;

type DrillDownResponse = InvoiceDetailResponse | UsageDetailResponse;

/** How many entries a drill-down page holds at its paginated level. */
export function drillDownCount(response: DrillDownResponse): number {
  if (typeof response.pagination?.count === "number") return response.pagination.count;
  const teams = response.data.paas.teams ?? [];
  const projects = teams.flatMap((t) => t.projects ?? []);
  switch (response.pagination?.unit) {
    case "teams":
      return teams.length;
    case "projects":
      return projects.length;
    default:
      return projects.flatMap((p) => p.resources ?? []).flatMap((r) => r.items).length;
  }
}

/**
 * Every page of a drill-down, from the query's page on, at whatever level the platform paginates
 * (it says which in `pagination.unit`). Totals above that level are whole on every page.
 */
async function* drillDownPages<R extends DrillDownResponse>(
  fetch: (query: DrillDownQuery) => Promise<R>,
  query: DrillDownQuery,
  walk: PageWalk,
): AsyncGenerator<R> {
  let response = await fetch(query);
  walk.fresh(drillDownFingerprint(response));
  // A page without pagination is the only one.
  const unit = response.pagination?.unit;
  if (!isDrillLevel(unit)) {
    yield response;
    return;
  }
  yield firstSeenOnly(response, unit, walk);
  const level = DRILL_LEVELS[unit];
  let page = query[level.page] ?? 1;
  // Only the platform's "no next page" ends it (`PageWalk.goOn`).
  while (walk.goOn(response.pagination?.hasNextPage, String(page + 1))) {
    page += 1;
    response = await fetch({ ...query, [level.page]: page });
    // A platform that ignores the page number sends the same page again (an empty page is told by its number).
    if (!walk.fresh(drillDownCount(response) === 0 ? `empty page ${page}` : drillDownFingerprint(response)))
      return;
    yield firstSeenOnly(response, unit, walk);
  }
}

/**
 * The page without the entries of its paginated level read on a page before (`PageWalk.firstSeen`):
 * a breakdown that gains entries while it is read repeats some. The groups above them stay, as
 * they do where a group straddles two pages.
 */
function firstSeenOnly<R extends DrillDownResponse>(
  response: R,
  unit: keyof typeof DRILL_LEVELS,
  walk: PageWalk,
): R {
  const keep = (...path: unknown[]) => walk.firstSeen(JSON.stringify(path));
  const teams = (response.data.paas.teams ?? []).flatMap((team) => {
    if (unit === "teams") return keep(team.id) ? [team] : [];
    const projects = (team.projects ?? []).flatMap((project) => {
      if (unit === "projects") return keep(team.id, project.id) ? [project] : [];
      const resources = (project.resources ?? []).map((group) => ({
        ...group,
        items: group.items.filter((item) => keep(team.id, project.id, item.id)),
      }));
      return [{ ...project, ...(project.resources ? { resources } : {}) }];
    });
    return [{ ...team, ...(team.projects ? { projects } : {}) }];
  });
  const paas = { ...response.data.paas, ...(response.data.paas.teams ? { teams } : {}) };
  return { ...response, data: { ...response.data, paas } };
}

/** The ids of a drill-down page's entries, down to its resources: what tells one page from the next. */
const drillDownFingerprint = (response: DrillDownResponse) =>
  JSON.stringify(
    (response.data.paas.teams ?? []).map((t) => [
      t.id,
      (t.projects ?? []).map((p) => [p.id, (p.resources ?? []).map((r) => r.items.map((i) => i.id))]),
    ]),
  );

/** Billing: invoices, usage, credit balance. Times are Unix seconds. */
export class Billing {
  constructor(private readonly core: Core) {}

  /** Finalized invoices, newest first. */
  async listInvoices(query: InvoiceListQuery = {}, options?: CallOptions): Promise<Page<Invoice>> {
    const q = this.core.check(invoiceListQuery, query, "GET", "/v1/billing/invoices", "query");
    const res = await this.core.call(
      { method: "GET", path: "/v1/billing/invoices", query: q, response: invoiceListResponse },
      options,
    );
    return { items: res.data.invoices, pagination: res.pagination ?? LAST_PAGE };
  }

  iterateInvoices(query: InvoiceListQuery = {}, options?: CallOptions): AsyncGenerator<Invoice> {
    return cursorItems(
      cursorPages(
        (cursor) => this.listInvoices({ ...query, cursor }, options),
        query.cursor,
        this.core.walk("/v1/billing/invoices", options),
      ),
    );
  }

  /** One invoice with one page of its drill-down. */
  async getInvoice(
    invoiceId: string,
    query: DrillDownQuery = {},
    options?: CallOptions,
  ): Promise<InvoiceDetailResponse> {
    const at = path`/v1/billing/invoices/${invoiceId}`;
    const q = this.core.check(drillDownQuery, query, "GET", at, "query");
    return this.core.call({ method: "GET", path: at, query: q, response: invoiceDetailResponse }, options);
  }

  /** Every drill-down page of an invoice. */
  invoicePages(
    invoiceId: string,
    query: DrillDownQuery = {},
    options?: CallOptions,
  ): AsyncGenerator<InvoiceDetailResponse> {
    return drillDownPages(
      (q) => this.getInvoice(invoiceId, q, options),
      query,
      this.core.walk(path`/v1/billing/invoices/${invoiceId}`, options),
    );
  }

  /** One page of usage entries (hours, days, months, or one total). */
  async listUsage(query: UsageListQuery = {}, options?: CallOptions): Promise<UsageListResponse> {
    const q = this.core.check(usageListQuery, query, "GET", "/v1/billing/usage", "query");
    return this.core.call(
      { method: "GET", path: "/v1/billing/usage", query: q, response: usageListResponse },
      options,
    );
  }

  /** Every page of usage, following cursors (day and month without a range page backward in time). */
  async *usagePages(query: UsageListQuery = {}, options?: CallOptions): AsyncGenerator<UsageListResponse> {
    const pages = cursorPages(
      async (cursor) => {
        const response = await this.listUsage({ ...query, cursor }, options);
        return { items: response.data.usage, pagination: response.pagination ?? LAST_PAGE, response };
      },
      query.cursor,
      this.core.walk("/v1/billing/usage", options),
      usageIdentity,
    );
    // The page's entries as the walk keeps them: an hour (a day, a month) read before is left out.
    for await (const page of pages)
      yield { ...page.response, data: { ...page.response.data, usage: page.items } };
  }

  /**
   * Every usage entry of a query, across pages, read as the body arrives: each entry is checked
   * (the same tolerant schema as `listUsage`) once its last byte is in, and handed over; memory
   * holds one entry, never a page (a page of 100 days of a large organisation is larger than one
   * string can be). See `streamUsageParts` to hold less than an entry.
   */
  streamUsage(query: UsageListQuery = {}, options: StreamOptions = {}): AsyncGenerator<UsageEntry> {
    return wholeEntries(this.streamUsageParts(query, options));
  }

  /**
   * The same list in smaller pieces, for organisations whose one entry is large (it carries every
   * resource): per entry, its head (the members before `paas.teams`), each team (checked with the
   * entry schema's team part) as soon as it is in, then the entry itself (checked, its
   * `paas.teams` empty when its teams came as parts). Memory holds one team. A body that breaks
   * off is read again from the same page, skipping what was handed over; `onPage` hears of each
   * page after its entries. `level` reads each team only down to the teams or the projects,
   * passing over the rest unparsed (`UsageLevel`).
   */
  streamUsageParts(query: UsageListQuery = {}, options: StreamOptions = {}): AsyncGenerator<UsagePart> {
    return usageParts(this.core, query, options);
  }

  /** Every usage entry across pages. */
  async *iterateUsage(query: UsageListQuery = {}, options?: CallOptions): AsyncGenerator<UsageEntry> {
    for await (const page of this.usagePages(query, options)) yield* page.data.usage;
  }

  /** One billing hour (its Unix timestamp from the usage list) with one page of its drill-down. */
  async getUsageHour(
    timestamp: number,
    query: DrillDownQuery = {},
    options?: CallOptions,
  ): Promise<UsageDetailResponse> {
    const at = path`/v1/billing/usage/${timestamp}`;
    const q = this.core.check(drillDownQuery, query, "GET", at, "query");
    return this.core.call({ method: "GET", path: at, query: q, response: usageDetailResponse }, options);
  }

  usageHourPages(
    timestamp: number,
    query: DrillDownQuery = {},
    options?: CallOptions,
  ): AsyncGenerator<UsageDetailResponse> {
    return drillDownPages(
      (q) => this.getUsageHour(timestamp, q, options),
      query,
      this.core.walk(path`/v1/billing/usage/${timestamp}`, options),
    );
  }

  /** Team tokens billed through an organisation get a PermissionError (403). */
  async getCreditBalance(options?: CallOptions): Promise<CreditBalance> {
    return (
      await this.core.call(
        { method: "GET", path: "/v1/billing/credit-balance", response: creditBalanceResponse },
        options,
      )
    ).data;
  }
}
