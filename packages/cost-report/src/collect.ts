import {
  type CreditBalance,
  type CwpClient,
  cursorPages,
  PermissionError,
  parseTimestamp,
  type ResourceType,
  type UsageLevel,
  type UsageListQuery,
  type UsagePart,
} from "@cwp/client";
import { Decimal } from "./decimal.js";
import { ReportDataError } from "./errors.js";
import { componentSum, type GroupBy, levelRead, type Row, RowTable } from "./group.js";
import { type Period, totalWindows, type Window } from "./period.js";

export type Granularity = "hour" | "day" | "month";

export interface Filters {
  teamId?: string | undefined;
  projectId?: string | undefined;
  resourceType?: ResourceType | undefined;
}

/** A finalized invoice: its id and billing period (Unix seconds, end exclusive). */
export interface Invoiced {
  id: string;
  start: number;
  end: number;
}

export interface Cluster {
  id: string;
  name: string;
  amount: Decimal;
}

/** A period's totals, folded as their entries arrive: rows by group, and the returned total. */
export interface Totals {
  rows: Map<string, Row>;
  /** The sum of the totals the platform returned, one per window of at most 366 days. */
  total: Decimal;
  /** Whether any entry had customer-level BYOC spend (then invoices carry cluster allocations). */
  byoc: boolean;
}

const MAX_PER_PAGE: Record<Granularity, number> = { hour: 100, day: 100, month: 12 };
/** Invoice details read at the same time: independent reads, a year's in three rounds. */
const DETAILS_AT_ONCE = 4;
/** How often, at most, a long read says where it is. */
const PROGRESS_EVERY_MS = 5_000;

/**
 * Reads what the report needs and counts its requests. Every usage list is streamed: an entry is
 * folded into what the report shows, then dropped. The plan is the fewest requests the API allows:
 * one `total` per window of at most 366 days (the period, and the previous one), the trend list at
 * its largest page, the credit balance when the scope has one, names only for the grouping shown,
 * and invoice details only where BYOC clusters exist (whole invoiced months).
 */
export class UsageReader {
  requests = 0;
  currency = "";
  /** Set when a team token reads billing through its organisation. */
  scope: Record<string, unknown> | undefined;
  /** The projects' ids by their uids, filled as the projects' names are read (`names`). */
  readonly projectIds = new Map<string, string>();
  readonly #filters: Filters;
  readonly #call: { signal: AbortSignal; deadline: number; wholeList: true };
  #lastProgress = Date.now();
  #invoices: Promise<Invoiced[]> | undefined;

  constructor(
    private readonly client: CwpClient,
    private readonly options: {
      groupBy: GroupBy;
      filters: Filters;
      signal: AbortSignal;
      deadline: number;
      /** Says where a long read is, at most every few seconds. */
      progress: (text: string) => void;
    },
  ) {
    this.#filters = Object.fromEntries(
      Object.entries(options.filters).filter(([, v]) => v !== undefined),
    ) as Filters;
    // Every list whole: what the report writes replaces an earlier run's files.
    this.#call = { signal: options.signal, deadline: options.deadline, wholeList: true };
  }

  /**
   * The names of the groups shown (teams or projects), read first so rows are labelled as they
   * stream; with `every` (the FOCUS dataset), both the teams' and the projects' names whatever the
   * grouping, so that SubAccountName and x_ProjectName are names: one more list of 100 a page.
   */
  async names(every = false): Promise<Map<string, string>> {
    const { groupBy } = this.options;
    const lists: Array<"teams" | "projects"> = every
      ? ["teams", "projects"]
      : groupBy === "resource-type"
        ? []
        : [groupBy === "team" ? "teams" : "projects"];
    const names = new Map<string, string>();
    await Promise.all(lists.map((list) => this.#readNames(list, names)));
    return names;
  }

  async #readNames(list: "teams" | "projects", names: Map<string, string>): Promise<void> {
    const read = (cursor: string | undefined) =>
      this.#counted(
        list === "teams"
          ? this.client.teams.list({ per_page: 100, cursor }, this.#call)
          : this.client.projects.list({ per_page: 100, cursor }, this.#call),
      );
    for await (const page of cursorPages(read, undefined, this.client.pageWalk(`/v1/${list}`, this.#call)))
      for (const item of page.items) {
        names.set(item.uid, item.name ?? item.id);
        if (list === "projects") this.projectIds.set(item.uid, item.id);
      }
  }

  /**
   * A period's totals; a team token that filters by team is told which input to drop. Read and
   * folded while the names are still being read (a large organisation's take several pages); only
   * labelling the rows waits for them.
   */
  totals(window: Window, names: Promise<Map<string, string>>): Promise<Totals> {
    return withTeamFilterHint(this.#filters, async () => {
      const rows = new RowTable(this.options.groupBy);
      let total = Decimal.zero;
      let byoc = false;
      for (const w of totalWindows(window)) {
        const query = { granularity: "total", startTime: w.start, endTime: w.end, ...this.#filters };
        for await (const part of this.#stream(query as UsageListQuery, levelRead(this.options.groupBy))) {
          if (part.kind === "team") rows.addTeam(part.team);
          if (part.kind !== "entry") continue;
          rows.add(part.entry);
          total = total.plus(Decimal.from(part.entry.total));
          byoc ||= part.entry.byoc !== undefined;
        }
      }
      return { rows: rows.labelled(await names), total, byoc };
    });
  }

  /**
   * Each bucket of the trend, oldest first, handed to `visit` in parts (its head, its teams, read
   * down to `level`, then the bucket's entry without them) and then dropped.
   */
  async trend(
    period: Period,
    granularity: Granularity,
    level: UsageLevel,
    visit: (part: UsagePart) => Promise<void> | void,
  ): Promise<void> {
    const query = {
      granularity,
      startTime: period.start,
      endTime: period.end,
      perPage: MAX_PER_PAGE[granularity],
      ...this.#filters,
    } as UsageListQuery;
    for await (const part of this.#stream(query, level)) await visit(part);
  }

  /** A team billed through its organisation has no credit balance of its own (spec 5.4). */
  async credit(): Promise<CreditBalance | undefined> {
    return this.scope ? undefined : await this.#counted(this.client.billing.getCreditBalance(this.#call));
  }

  /** BYOC cluster allocations, when the period holds a whole invoiced month with BYOC spend. */
  async clusters(period: Period, current: Totals): Promise<Cluster[] | undefined> {
    if (!current.byoc || !holdsWholeMonth(period)) return undefined;
    const inside = (await this.invoices(period))
      .filter((invoice) => invoice.start >= period.start && invoice.end <= period.end)
      .map((invoice) => invoice.id);
    return invoiceClusters(this.client, inside, (request) => this.#counted(request), this.#call);
  }

  /**
   * The finalized invoices whose billing period overlaps the report's, read once (the clusters and
   * the FOCUS dataset's InvoiceId both need them): newest first, so the list stops at the first
   * page that reaches before the period.
   */
  invoices(period: Window): Promise<Invoiced[]> {
    this.#invoices ??= this.#readInvoices(period);
    return this.#invoices;
  }

  async #readInvoices(period: Window): Promise<Invoiced[]> {
    const found: Invoiced[] = [];
    const read = (cursor: string | undefined) =>
      this.#counted(this.client.billing.listInvoices({ perPage: 100, cursor }, this.#call));
    for await (const page of cursorPages(
      read,
      undefined,
      this.client.pageWalk("/v1/billing/invoices", this.#call),
    )) {
      for (const invoice of page.items) {
        const start = parseTimestamp(invoice.periodStart);
        const end = parseTimestamp(invoice.periodEnd);
        // Its rows' InvoiceId depends on its period: one that cannot be read stops the report.
        if (start === undefined || end === undefined)
          throw new ReportDataError(
            `The platform's invoice ${JSON.stringify(String(invoice.id).slice(0, 60))} has a billing period that is not a time (periodStart ${JSON.stringify(String(invoice.periodStart).slice(0, 40))}, periodEnd ${JSON.stringify(String(invoice.periodEnd).slice(0, 40))}): the report stops here.`,
          );
        if (end / 1000 > period.start && start / 1000 < period.end)
          found.push({ id: invoice.id, start: start / 1000, end: end / 1000 });
      }
      // Newest first: a page that reaches before the period ends the list's reading.
      const oldest = parseTimestamp(page.items.at(-1)?.periodStart);
      if (oldest === undefined || oldest / 1000 <= period.start) break;
    }
    return found;
  }

  /**
   * A usage list in parts (an entry of a large organisation is large: a team at a time is what is
   * held), saying where it is every few seconds (a large one takes minutes).
   */
  async *#stream(query: UsageListQuery, level: UsageLevel): AsyncGenerator<UsagePart> {
    let entries = 0;
    let pages = 0;
    const read = this.client.billing.streamUsageParts(query, {
      ...this.#call,
      level,
      onPage: ({ page }) => {
        pages += 1;
        this.requests += 1;
        this.currency ||= page.data.currency ?? "";
        this.scope ??= page.data.scope as Record<string, unknown> | undefined;
      },
    });
    for await (const part of read) {
      yield part;
      if (part.kind !== "entry") continue;
      const { entry } = part;
      entries += 1;
      if (Date.now() - this.#lastProgress < PROGRESS_EVERY_MS) continue;
      this.#lastProgress = Date.now();
      const reached =
        entry.window?.end ??
        (entry.timestamp === undefined ? undefined : new Date((entry.timestamp + 3600) * 1000).toISOString());
      this.options.progress(
        `Usage by ${query.granularity}: ${entries} entries read${reached ? `, up to ${reached}` : ""} (${pages} pages complete, ${this.requests} requests so far).`,
      );
    }
  }

  async #counted<T>(request: Promise<T>): Promise<T> {
    this.requests += 1;
    return request;
  }
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

/** BYOC cluster allocations, from the details of the invoices given (the whole months inside the period). */
async function invoiceClusters(
  client: CwpClient,
  inside: readonly string[],
  counted: <T>(p: Promise<T>) => Promise<T>,
  call: { signal: AbortSignal; deadline: number },
): Promise<Cluster[] | undefined> {
  if (inside.length === 0) return undefined;
  // The details are independent reads: a few at a time, folded in the list's order.
  const details = [];
  for (let i = 0; i < inside.length; i += DETAILS_AT_ONCE)
    details.push(
      ...(await Promise.all(
        inside
          .slice(i, i + DETAILS_AT_ONCE)
          .map((id) => counted(client.billing.getInvoice(id, { teamsPerPage: 1 }, call))),
      )),
    );
  const byId = new Map<string, Cluster>();
  for (const detail of details) {
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
