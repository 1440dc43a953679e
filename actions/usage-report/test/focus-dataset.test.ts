import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { arrowPruning, withoutColumnOrders } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import {
  checkDataset,
  count,
  duck,
  focusReport,
  monthsOf,
  platform,
  quoted,
  rows,
  useFocusChecks,
} from "./focus-checks.js";

useFocusChecks();

// focus.csv and focus.parquet as a FinOps tool loads them (focus-checks.ts says how they are checked).

describe("usage-report: the FOCUS dataset (focus.csv and focus.parquet)", { timeout: 300_000 }, () => {
  it("an organisation's month by day: FOCUS 1.2 in both files, Parquet typed and in row groups, the same rows", async () => {
    const { header, json, parquet } = await focusReport({
      period: "last-30-days",
      compare: "false",
      "billing-account-name": "Acme Corp",
    });
    await checkDataset(header, json, parquet);
    const groups = await count(
      `SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata(${quoted(parquet)})`,
    );
    expect(groups).toBeGreaterThan(1);
    // Arrow, a reader other than DuckDB, skips row groups by their statistics: a filter on the
    // first day keeps fewer than all of them. The same file without the footer's column_orders:
    // Arrow ignores the statistics and keeps every row group (DuckDB would still skip).
    const [first] = await rows(
      "SELECT strftime(min(ChargePeriodStart) AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS day FROM pq",
    );
    const day = new Date(String(first?.day));
    const firstDay = {
      column: "ChargePeriodStart",
      from: day.toISOString(),
      to: new Date(day.getTime() + 86_400_000).toISOString(),
    };
    const arrow = arrowPruning(parquet, firstDay);
    expect(arrow.hasMinMax).toBe(true);
    expect(arrow.rowGroups).toBe(groups);
    expect(arrow.kept).toBeGreaterThan(0);
    expect(arrow.kept).toBeLessThan(arrow.rowGroups);
    const unordered = join(dirname(parquet), "without-column-orders.parquet");
    withoutColumnOrders(parquet, unordered);
    expect(arrowPruning(unordered, firstDay)).toMatchObject({
      rowGroups: groups,
      hasMinMax: false,
      kept: groups,
    });
    // A row group holds one ServiceName, so a filter on a service keeps only that service's groups.
    const serviceStats = `FROM parquet_metadata(${quoted(parquet)}) WHERE path_in_schema = 'ServiceName'`;
    expect(await count(`SELECT count(*) AS n ${serviceStats} AND stats_min_value <> stats_max_value`)).toBe(
      0,
    );
    const [service] = await rows("SELECT ServiceName AS name FROM pq GROUP BY ALL ORDER BY count(*) LIMIT 1");
    const name = String(service?.name);
    const byService = arrowPruning(parquet, { column: "ServiceName", equals: name });
    expect(byService.kept).toBe(
      await count(`SELECT count(*) AS n ${serviceStats} AND stats_min_value = ${quoted(name)}`),
    );
    expect(byService.kept).toBeLessThan(groups);
    // The package README's "spend by month and team", as written, on this file: the same rows in
    // any session time zone, each month's spend the file's.
    const readme = await readFile(
      new URL("../../../packages/cost-report/README.md", import.meta.url),
      "utf8",
    );
    const query = /Spend by month and team[\s\S]*?```sql\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(query).toContain("read_parquet('focus.parquet')");
    const inZone = async (zone: string) => {
      await duck.run(`SET TimeZone = '${zone}'`);
      return rows(query.replace("'focus.parquet'", quoted(parquet)).replace(/;\s*$/, ""));
    };
    const spend = await inZone("America/New_York");
    expect(await inZone("UTC")).toEqual(spend);
    expect(spend.map((r) => r.team)).toEqual(expect.arrayContaining(["the billing account", "Platform"]));
    const months = await rows(
      "SELECT strftime(BillingPeriodStart AT TIME ZONE 'UTC', '%Y-%m') AS month, round(sum(BilledCost), 2) AS spend FROM pq GROUP BY ALL ORDER BY month",
    );
    // The months the 30 days touch: two on most days, one on the 1st after a 30- or 31-day month.
    const windowMonths = monthsOf(json.period);
    expect(windowMonths.length).toBeGreaterThanOrEqual(1);
    expect(months.map((m) => m.month)).toEqual(windowMonths);
    for (const { month, spend: total } of months)
      expect(spend.filter((r) => r.month === month).reduce((sum, r) => sum + Number(r.spend), 0)).toBeCloseTo(
        Number(total),
        1,
      );
    // BillingAccountName: the name given, on every row (the API names no organisation).
    expect(await rows("SELECT DISTINCT BillingAccountName FROM pq")).toEqual([
      { BillingAccountName: "Acme Corp" },
    ]);
    // InvoiceId: set where the charge's billing period has a finalized invoice (the platform's own
    // list, read here), null where it has none yet (the current month).
    const listed = (await (
      await fetch(new URL("/v1/billing/invoices?perPage=100", platform.url), {
        headers: { authorization: `Bearer ${platform.tokens.org}` },
      })
    ).json()) as { data: { invoices: { id: string; periodStart: string }[] } };
    const invoiceOf = new Map(listed.data.invoices.map((i) => [Date.parse(i.periodStart), i.id]));
    const byMonth = await rows(
      "SELECT DISTINCT epoch_ms(BillingPeriodStart) AS month, InvoiceId FROM pq ORDER BY 1",
    );
    expect(byMonth.map((m) => new Date(Number(m.month)).toISOString().slice(0, 7))).toEqual(windowMonths);
    // The window ends at today's start: every month before today's is finalized and listed, and
    // today's month, where the window reaches into it, is a draft the list does not return.
    const thisMonth = json.period.end.slice(0, 7);
    for (const { month, InvoiceId } of byMonth) {
      const finalized = new Date(Number(month)).toISOString().slice(0, 7) < thisMonth;
      expect(InvoiceId).toBe(finalized ? invoiceOf.get(Number(month)) : null);
      if (finalized) expect(InvoiceId).toEqual(expect.any(String));
    }
    // Customer-level charges are the billing account's own: no team, project or resource.
    const customer = await rows(
      "SELECT DISTINCT ServiceName, ServiceCategory, PricingUnit FROM pq WHERE SubAccountId IS NULL ORDER BY ServiceName, PricingUnit",
    );
    expect(customer).toEqual([
      { ServiceName: "Bring your own cloud", ServiceCategory: "Compute", PricingUnit: "GiB-Hours" },
      { ServiceName: "Bring your own cloud", ServiceCategory: "Compute", PricingUnit: "vCPU-Hours" },
      { ServiceName: "Egress IP", ServiceCategory: "Networking", PricingUnit: "Hours" },
      { ServiceName: "Load balancer", ServiceCategory: "Networking", PricingUnit: "Hours" },
    ]);
    // BYOC usage as quantities: the report's vCPU-hours and memory GiB-hours of BYOC, row for row.
    const byoc = json.allRows.find((r) => r.key === "customer:byoc")?.usage;
    const quantities = await rows(
      "SELECT sum(ConsumedQuantity::DECIMAL(18, 6)) FILTER (WHERE ConsumedUnit = 'vCPU-Hours')::VARCHAR AS vcpu, sum(ConsumedQuantity::DECIMAL(18, 6)) FILTER (WHERE ConsumedUnit = 'GiB-Hours')::VARCHAR AS memory FROM pq WHERE ServiceName = 'Bring your own cloud'",
    );
    expect(Number(quantities[0]?.vcpu)).toBeCloseTo(Number(byoc?.vcpuHours), 4);
    expect(Number(quantities[0]?.memory)).toBeCloseTo(Number(byoc?.memoryGibHours), 4);
  });
});
