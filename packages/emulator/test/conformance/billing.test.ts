import { describe, expect, it } from "vitest";
import { type Emulated, useEmulator } from "../helpers.js";

// Spec 2.2, 4.1 and 5.4: the billing world, its scopes, its pagination and its money rules.

const emu = useEmulator({ speed: 0 });
const DAY_S = 86_400;

/** Amounts here have at most six decimals: compare in integer millionths to avoid float noise. */
const micros = (x: number) => Math.round(x * 1e6);
const cents = (x: number) => Math.round(x * 100);

async function usage(e: Emulated, query: Record<string, string | number>, token = e.fixtures.tokens.org) {
  const answer = await e.api("GET", "/v1/billing/usage", { token, query });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** Every entry of a usage list, following cursors. */
async function allUsage(e: Emulated, query: Record<string, string | number>, token?: string) {
  const entries = [];
  let cursor: string | undefined;
  do {
    const page = await usage(e, { ...query, ...(cursor ? { cursor } : {}) }, token);
    entries.push(...page.data.usage);
    cursor = page.pagination.hasNextPage ? page.pagination.cursor : undefined;
  } while (cursor);
  return entries;
}

const sumPrice = (nodes: Array<{ price: { cpu: number; memory: number; storage: number; gpu: number } }>) =>
  nodes.reduce(
    (s, n) =>
      s + micros(n.price.cpu) + micros(n.price.memory) + micros(n.price.storage) + micros(n.price.gpu),
    0,
  );
const componentMicros = (n: { price: { cpu: number; memory: number; storage: number; gpu: number } }) =>
  sumPrice([n]);

describe("usage list (4.1)", () => {
  it("pages day and month backward from now without a range, with window and unit", async () => {
    const days = await usage(emu, { granularity: "day", perPage: 3 });
    expect(days.pagination).toMatchObject({ hasNextPage: true, count: 3, unit: "days" });
    const starts = days.data.usage.map((u: { window: { start: string } }) => Date.parse(u.window.start));
    expect(starts[0]).toBeGreaterThan(starts[1]);
    const months = await usage(emu, { granularity: "month" });
    expect(months.pagination).toMatchObject({ count: 12, unit: "months", hasNextPage: true });
    expect(months.data.currency).toBe("USD");
  });

  it("holds at least 13 months of hourly history", async () => {
    const months = await allUsage(emu, { granularity: "month" });
    // 13 whole months or more, and the current one once an hour of it has ended: in a month's
    // first hour it has none yet.
    const now = new Date(await emu.now());
    const start = new Date(emu.fixtures.billing.historyStart);
    const whole =
      (now.getUTCFullYear() - start.getUTCFullYear()) * 12 + now.getUTCMonth() - start.getUTCMonth();
    expect(whole).toBeGreaterThanOrEqual(13);
    const hoursThisMonth = Math.floor(
      (now.getTime() - Date.UTC(now.getUTCFullYear(), now.getUTCMonth())) / 3_600_000,
    );
    expect(months.length).toBe(whole + (hoursThisMonth > 0 ? 1 : 0));
    const first = months.at(-1);
    expect(first.window.start).toBe(emu.fixtures.billing.historyStart);
  });

  it("refuses perPage above the granularity's maximum and total without both times or over 366 days", async () => {
    const over = await emu.api("GET", "/v1/billing/usage", { query: { granularity: "month", perPage: 13 } });
    expect(over.body.error.details).toHaveProperty(["query.perPage"]);
    const start = Math.floor(Date.parse(emu.fixtures.billing.historyStart) / 1000);
    const long = await emu.api("GET", "/v1/billing/usage", {
      query: { granularity: "total", startTime: start, endTime: start + 367 * DAY_S },
    });
    expect(long.status).toBe(400);
    expect(long.body.error.details).toHaveProperty(["query.endTime"]);
  });

  it("days add up to their month, projects to their team and teams to the organisation, over the whole year", async () => {
    const start = Math.floor(Date.parse(emu.fixtures.billing.historyStart) / 1000);
    const months = await allUsage(emu, { granularity: "month", startTime: start });
    const days = await allUsage(emu, { granularity: "day", startTime: start, perPage: 100 });
    for (const month of months) {
      const inMonth = days.filter(
        (d: { window: { start: string } }) =>
          d.window.start >= month.window.start && d.window.start < month.window.end,
      );
      // Unrounded components add up exactly; rounded totals within a cent per part.
      expect(sumPrice(inMonth.map((d: { paas: Parameters<typeof componentMicros>[0] }) => d.paas))).toBe(
        componentMicros(month.paas),
      );
      const roundedSum = inMonth.reduce((s: number, d: { total: number }) => s + cents(d.total), 0);
      expect(Math.abs(roundedSum - cents(month.total))).toBeLessThanOrEqual(inMonth.length);
      for (const team of month.paas.teams) expect(sumPrice(team.projects)).toBe(componentMicros(team));
      expect(sumPrice(month.paas.teams)).toBe(componentMicros(month.paas));
      expect(month.total).toBe(
        Math.round(
          (componentMicros(month.paas) + sumPrice([month.byoc, month.egressIp, month.loadBalancer])) / 1e4,
        ) / 100,
      );
    }
    // The money rule the issue names: some sum of rounded parts differs from the returned total.
    const gaps = months.filter(
      (m) =>
        cents(m.paas.teams.reduce((s: number, t: { price: { total: number } }) => s + t.price.total, 0)) !==
        cents(m.paas.price.total),
    );
    expect(gaps.length).toBeGreaterThan(0);
  });

  it("narrows paas and total to a filter and omits customer-level categories", async () => {
    const project = emu.fixtures.projects.find((p) => p.id === "platform-web")!;
    const start = Math.floor(Date.parse(emu.fixtures.billing.historyStart) / 1000);
    const q = { granularity: "total", startTime: start, endTime: start + 30 * DAY_S };
    const whole = (await usage(emu, q)).data.usage[0];
    const slice = (await usage(emu, { ...q, projectId: project.uid })).data.usage[0];
    expect(whole.byoc).toBeDefined();
    expect(slice.byoc).toBeUndefined();
    expect(slice.egressIp).toBeUndefined();
    expect(slice.paas.teams[0].projects.map((p: { id: string }) => p.id)).toEqual([project.uid]);
    expect(slice.total).toBe(slice.paas.price.total);
    const bad = await emu.api("GET", "/v1/billing/usage", { query: { projectId: "0".repeat(24) } });
    expect(bad.body.error.details).toHaveProperty(["query.projectId"]);
  });
});

describe("scopes (5.4)", () => {
  it("a team billed through the organisation: scope, no customer categories, no teamId, no credit balance", async () => {
    const token = emu.fixtures.tokens.teamViaOrg;
    const page = await usage(emu, { granularity: "day", perPage: 2 }, token);
    expect(page.data.scope).toBeDefined();
    for (const entry of page.data.usage) {
      expect(entry.byoc).toBeUndefined();
      expect(entry.loadBalancer).toBeUndefined();
      expect(entry.paas.teams.map((t: { id: string }) => t.id)).toEqual([
        emu.fixtures.teams.find((t) => t.id === "platform")!.uid,
      ]);
    }
    const withTeam = await emu.api("GET", "/v1/billing/usage", {
      token,
      query: { teamId: emu.fixtures.teams[0]!.uid },
    });
    expect(withTeam.status).toBe(403);
    expect((await emu.api("GET", "/v1/billing/credit-balance", { token })).status).toBe(403);
    const invoices = await emu.api("GET", "/v1/billing/invoices", { token });
    expect(
      invoices.body.data.invoices.every((i: { scope?: unknown; byoc?: unknown }) => i.scope && !i.byoc),
    ).toBe(true);
  });

  it("a team with its own billing: full data in its currency, and a credit balance showing money owed", async () => {
    const token = emu.fixtures.tokens.teamOwnBilling;
    const page = await usage(emu, { granularity: "day", perPage: 1 }, token);
    expect(page.data.scope).toBeUndefined();
    expect(page.data.currency).toBe("EUR");
    expect(page.data.usage[0].loadBalancer).toBeDefined();
    const balance = (await emu.api("GET", "/v1/billing/credit-balance", { token })).body.data;
    expect(balance.customerBalance.amount).toBeLessThan(0);
    expect(balance.total.available).toBe(balance.grants.available);
    const invoices = (await emu.api("GET", "/v1/billing/invoices", { token })).body.data.invoices;
    expect(invoices.map((i: { status: string }) => i.status)).toContain("payment_failed");
  });

  it("the organisation: customer totals, BYOC clusters on invoice detail and unfiltered hour detail", async () => {
    const list = (await emu.api("GET", "/v1/billing/invoices")).body;
    const [latest] = list.data.invoices;
    expect(list.data.invoices.map((i: { status: string }) => i.status)).not.toContain("draft");
    const detail = (await emu.api("GET", `/v1/billing/invoices/${latest.id}`)).body;
    expect(detail.data.byoc.clusters.length).toBeGreaterThan(0);
    expect(detail.pagination.unit).toBe("teams");
    expect(detail.data.total).toBe(latest.total);
    const hour = (await usage(emu, { perPage: 1 })).data.usage[0].timestamp;
    const hourDetail = (await emu.api("GET", `/v1/billing/usage/${hour}`)).body;
    expect(hourDetail.data.byoc.clusters).toBeDefined();
    const filtered = (await emu.api("GET", `/v1/billing/usage/${hour}`, { query: { resourceType: "addon" } }))
      .body;
    expect(filtered.data.byoc).toBeUndefined();
    // A filter narrows only the breakdown: the hour's totals stay.
    expect(filtered.data.paas.price).toEqual(hourDetail.data.paas.price);
  });
});

describe("drill-down pages (the table of 4.1)", () => {
  const invoiceId = async () =>
    (await emu.api("GET", "/v1/billing/invoices")).body.data.invoices[0].id as string;

  it("paginates the level the table names, with whole rollups above it", async () => {
    const id = await invoiceId();
    const team = emu.fixtures.teams.find((t) => t.id === "platform")!;
    const project = emu.fixtures.projects.find((p) => p.id === "platform-web")!;
    const cases: Array<[Record<string, string | number>, string, string | undefined]> = [
      [{}, "teams", emu.fixtures.tokens.org],
      [{}, "projects", emu.fixtures.tokens.teamViaOrg],
      [{ teamId: team.uid }, "projects", emu.fixtures.tokens.org],
      [{ resourceType: "addon" }, "projects", emu.fixtures.tokens.org],
      [{ projectId: project.uid }, "resources", emu.fixtures.tokens.org],
      [{ projectId: project.uid, resourceType: "service" }, "resources", emu.fixtures.tokens.org],
    ];
    for (const [query, unit, token] of cases) {
      const answer = await emu.api("GET", `/v1/billing/invoices/${id}`, { token, query });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.pagination.unit, JSON.stringify(query)).toBe(unit);
    }
    const byType = (await emu.api("GET", `/v1/billing/invoices/${id}`, { query: { resourceType: "addon" } }))
      .body;
    for (const p of byType.data.paas.teams.flatMap((t: { projects: unknown[] }) => t.projects))
      expect(p).toMatchObject({ resources: [{ resourceType: "addon", items: [] }] });
  });

  it("pages resources one by one and the pages put together are the whole project", async () => {
    const id = await invoiceId();
    const project = emu.fixtures.projects.find((p) => p.id === "platform-web")!;
    const items: Array<{ id: string }> = [];
    let page = 1;
    let answer: {
      data: {
        paas: { teams: Array<{ projects: Array<{ resources: Array<{ items: Array<{ id: string }> }> }> }> };
      };
      pagination: { hasNextPage: boolean };
    };
    do {
      answer = (
        await emu.api("GET", `/v1/billing/invoices/${id}`, {
          query: { projectId: project.uid, resourcesPerPage: 2, resourcesPage: page },
        })
      ).body;
      const p = answer.data.paas.teams[0]!.projects[0]!;
      items.push(...p.resources.flatMap((r) => r.items));
      page += 1;
    } while (answer.pagination.hasNextPage);
    const whole = (await emu.api("GET", `/v1/billing/invoices/${id}`, { query: { projectId: project.uid } }))
      .body;
    const all = whole.data.paas.teams[0].projects[0].resources.flatMap(
      (r: { items: Array<{ id: string }> }) => r.items,
    );
    expect(items.map((i) => i.id)).toEqual(all.map((i: { id: string }) => i.id));
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  });
});
