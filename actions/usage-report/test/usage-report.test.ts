import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { PERIODS } from "@cwp/cost-report";
import { describe, expect, it } from "vitest";
import {
  DAY,
  date,
  decimalText,
  hourly,
  micros,
  platform,
  priceMicros,
  report,
  WHOLE_HOURS,
  yesterday,
} from "./report-harness.js";

platform.use();

// usage-report: the numbers, scopes and the budget (report-harness.ts runs the step).

describe("usage-report: the numbers", () => {
  it("matches, number for number, sums computed from the raw hourly data", async () => {
    await platform.reset();
    const end = yesterday() + DAY;
    const start = end - 3 * DAY;
    const { result, json } = await report({
      start: date(start),
      end: date(end - DAY),
      "group-by": "project",
      formats: "json",
      compare: "false",
    });
    expect(result.code, result.stdout).toBe(0);
    const entries = await hourly(start, end);
    expect(entries).toHaveLength(72);
    const byProject = new Map<string, bigint>();
    let all = 0n;
    for (const e of entries) {
      for (const t of e.paas.teams)
        for (const p of t.projects)
          for (const g of p.resources)
            for (const i of g.items) {
              byProject.set(p.id, (byProject.get(p.id) ?? 0n) + priceMicros(i.price));
              all += priceMicros(i.price);
            }
      all += priceMicros(e.byoc.price) + priceMicros(e.egressIp.price) + priceMicros(e.loadBalancer.price);
    }
    const groups = json?.allRows.filter((r) => r.kind === "group") ?? [];
    expect(groups.map((r) => r.key).sort()).toEqual([...byProject.keys()].sort());
    for (const row of groups) expect(row.cost, row.key).toBe(decimalText(byProject.get(row.key) ?? 0n));
    // The headline is the platform's total: the unrounded sum, rounded half up to cents.
    expect(json?.total).toBe(decimalText(((all + 5_000n) / 10_000n) * 10_000n));
    expect(result.outputs.total).toBe(Number(json?.total).toFixed(2));
  });

  it("shows the returned total and a footnote with the gap when rounded rows do not add up to it", async () => {
    await platform.reset();
    let found = false;
    for (let day = yesterday(); day > yesterday() - 40 * DAY && !found; day -= DAY) {
      const { result, json } = await report({
        start: date(day),
        end: date(day),
        "group-by": "resource",
        formats: "json",
        compare: "false",
        top: "100",
      });
      expect(result.code).toBe(0);
      if (json?.roundingGap === "0") continue;
      found = true;
      const shown = json?.rows.reduce((s, r) => s + Math.round(Number(r.cost) * 100), 0) ?? 0;
      expect(Math.round(Number(json?.total) * 100) - shown).toBe(Math.round(Number(json?.roundingGap) * 100));
      expect(result.summary).toMatch(
        /¹ Each row is rounded to cents .* away from the total the platform returned/,
      );
      // The mark is in the table, in a cell the header has (GitHub drops cells beyond it).
      const lines = result.summary.split("\n");
      const at = lines.findIndex((l) => l.startsWith("| **Total"));
      const total = lines[at];
      const header = lines[lines.slice(0, at).findLastIndex((l) => l.startsWith("|---")) - 1];
      const cells = (line = "") => line.split("|").length;
      expect(total).toMatch(/^\| \*\*Total \(as the platform returned it\)\*\* ¹ \|/);
      expect(cells(total)).toBe(cells(header));
    }
    expect(found).toBe(true);
  });

  // Every period once and every grouping at least once, a grouping to each period in turn: the
  // period decides what is read and the totals, the grouping only how the rows are cut. Six runs
  // of the bundle, where every pair was 24.
  it("reports every period and grouping with the platform's totals for the period and the one before", async () => {
    await platform.reset();
    const groupings = ["team", "project", "resource-type", "resource"];
    expect(PERIODS.length).toBeGreaterThanOrEqual(groupings.length);
    for (const [i, period] of PERIODS.entries()) {
      const groupBy = groupings[i % groupings.length] as string;
      const { result, json } = await report({
        period,
        "group-by": groupBy,
        formats: "json",
        granularity: period.includes("12") ? "month" : "day",
      });
      expect(result.code, `${period} ${groupBy}: ${result.stdout}`).toBe(0);
      const start = Date.parse(json?.period.start ?? "") / 1000;
      const end = Date.parse(json?.period.end ?? "") / 1000;
      const totalOf = async (s: number, e: number) => {
        // A period with no time in it yet (month-to-date at a month's first instant) has no total.
        if (e <= s) return undefined;
        const res = await fetch(
          `${platform.url}/v1/billing/usage?granularity=total&startTime=${s}&endTime=${e}`,
          { headers: { authorization: `Bearer ${platform.tokens.org}` } },
        );
        return ((await res.json()) as { data: { usage: Array<{ total: number }> } }).data.usage[0]?.total;
      };
      const total = await totalOf(start, end);
      // In a month's (or a year's) first hour, month-to-date (year-to-date) has no whole hour
      // yet: the platform has no entry for the hour under way, and the report spends nothing.
      if (total === undefined)
        expect(
          Math.min(end * 1000, Date.parse(json?.generatedAt ?? "")) - start * 1000,
          `${period}: no usage, so no whole hour before the report`,
        ).toBeLessThan(3_600_000);
      expect(Number(json?.total), `${period} ${groupBy}`).toBe(total ?? 0);
      // The period before: as many calendar months before whole months, else as long a time.
      const [from, to] = [new Date(start * 1000), new Date(end * 1000)];
      const wholeMonths = [from, to].every((d) => d.getUTCDate() === 1 && d.getTime() % 86_400_000 === 0);
      const months =
        (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth();
      const previousStart = wholeMonths
        ? Date.UTC(from.getUTCFullYear(), from.getUTCMonth() - months) / 1000
        : start - (end - start);
      expect(Number(json?.previousTotal), `${period} ${groupBy} previous`).toBe(
        (await totalOf(previousStart, start)) ?? 0,
      );
      if (total === undefined) expect(json?.rows).toEqual([]);
      else expect(json?.rows.length).toBeGreaterThan(0);
    }
  });

  it("writes tidy CSV safe for spreadsheets, FOCUS columns that add up, and JSON money as strings", async () => {
    await platform.reset();
    const { result, json, dir } = await report({
      period: "last-7-days",
      compare: "false",
      formats: "markdown,csv,json,focus",
    });
    expect(result.code).toBe(0);
    const csv = (await readFile(join(dir, "report.csv"), "utf8")).trim().split("\n");
    expect(csv[0]).toBe(
      "period_start,period_end,period,group_by,group_key,group_name,kind,cost,currency,vcpu_hours,memory_gib_hours,storage_gib_hours,gpu_hours",
    );
    expect(csv.length - 1).toBe(7 * json!.allRows.length);
    const focus = (await readFile(join(dir, "focus.csv"), "utf8")).trim().split("\n");
    const header = focus[0]?.split(",") ?? [];
    expect(header).toEqual(
      expect.arrayContaining([
        "BilledCost",
        "EffectiveCost",
        "BillingCurrency",
        "ChargePeriodStart",
        "ChargePeriodEnd",
        "ChargeCategory",
        "ConsumedQuantity",
        "ConsumedUnit",
        "ResourceId",
        "ResourceType",
        "ServiceName",
        "SubAccountId",
      ]),
    );
    const billed = header.indexOf("BilledCost");
    const focusMicros = focus.slice(1).reduce((s, line) => s + micros(Number(line.split(",")[billed])), 0n);
    const rowsMicros = json!.allRows.reduce((s, r) => s + micros(Number(r.cost)), 0n);
    expect(focusMicros).toBe(rowsMicros);
    expect(typeof json?.total).toBe("string");
    expect(json?.requests.count).toBeGreaterThan(0);
  });

  it("writes focus.csv only when formats lists it: it grows with the organisation, not the report", async () => {
    await platform.reset();
    const { result, dir } = await report({ period: "last-7-days", compare: "false" });
    expect(result.code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(["report.csv", "report.json", "report.md"]);
  });
});

describe("usage-report: scopes (spec 5.4)", () => {
  it("organisation: customer-level rows, BYOC clusters from the invoices, the credit balance", async () => {
    await platform.reset();
    const { result, json } = await report({ period: "last-month", formats: "json" });
    expect(result.code).toBe(0);
    expect(json?.rows.map((r) => r.key)).toEqual(
      expect.arrayContaining(["customer:byoc", "customer:egressIp", "customer:loadBalancer"]),
    );
    expect(result.summary).toContain("### BYOC clusters");
    expect(result.summary).toContain("### Credit balance");
    const requests = await platform.requests();
    expect(json?.requests.count).toBe(requests.length);
  });

  it("a team billed through the organisation: scope, no customer charges, no teamId sent, no credit balance asked", async () => {
    await platform.reset();
    const { result, json } = await report(
      { ...WHOLE_HOURS, formats: "json" },
      {},
      platform.tokens.teamViaOrg,
    );
    expect(result.code, result.stdout).toBe(0);
    expect(json?.scope).not.toBeNull();
    expect(json?.rows.every((r) => r.kind === "group")).toBe(true);
    expect(result.summary).toContain("Team scope");
    const requests = await platform.requests();
    expect(requests.every((r) => !("teamId" in r.query))).toBe(true);
    expect(requests.some((r) => r.path.endsWith("/credit-balance"))).toBe(false);
    expect(requests.every((r) => r.status === 200)).toBe(true);
  });

  it("a team with its own billing: its currency, and money owed shown as owed", async () => {
    await platform.reset();
    const { result, json } = await report(
      { ...WHOLE_HOURS, formats: "json" },
      {},
      platform.tokens.teamOwnBilling,
    );
    expect(result.code).toBe(0);
    expect(json?.currency).toBe("EUR");
    const credit = result.summary.slice(result.summary.indexOf("### Credit balance")).split("\n\n")[1] ?? "";
    expect(credit).toContain("| Credit | Amount (EUR) |");
    expect(credit).toMatch(/\| \*\*Owed\*\* \(unpaid invoices\) \| \*\*[\d,]+\.\d\d\*\* \|/);
    expect(credit).not.toMatch(/-[\d,]+\.\d\d/);
  });

  it("explains that team-uid is for organisation tokens when a team token sends it", async () => {
    await platform.reset();
    const team = platform.fixtures.teams.find((t: { id: string }) => t.id === "platform");
    const { result } = await report({ ...WHOLE_HOURS, "team-uid": team.uid }, {}, platform.tokens.teamViaOrg);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/team-uid is for organisation tokens/);
  });
});

describe("usage-report: budget", () => {
  it("warns past the warning share and fails over budget when asked", async () => {
    await platform.reset();
    // Seven whole days: spend on any day (month-to-date has none in a month's first hour).
    const week = { period: "last-7-days", formats: "json", compare: "false" };
    const first = await report(week);
    const total = Number(first.json?.total);
    expect(total).toBeGreaterThan(0);
    const warned = await report({ ...week, budget: (total * 1.1).toFixed(2) });
    expect(warned.result.code).toBe(0);
    expect(warned.result.stdout).toMatch(/::warning::Spent 9\d\.\d%25 of the budget/);
    expect(warned.result.outputs["over-budget"]).toBe("false");
    const over = await report({ ...week, budget: (total / 2).toFixed(2), "fail-on-budget-exceeded": "true" });
    expect(over.result.code).toBe(1);
    expect(over.result.outputs).toMatchObject({ "over-budget": "true", "budget-used-percent": "200.0" });
    expect(over.result.summary).toContain("🛑 over budget");
  });
});
