import type { Decimal } from "../decimal.js";
import { isoTime } from "../period.js";
import { type Report, SCHEMA_VERSION, type ShownRow } from "../report.js";

// report.json: money as decimal strings (never floats), a schema version, the request count.

const money = (d: Decimal | undefined) => (d === undefined ? null : d.toFixed());

const row = (r: ShownRow) => ({
  key: r.key,
  label: r.label,
  kind: r.kind,
  cost: money(r.cost),
  previousCost: money(r.previous),
  approximate: r.approximate,
  usage: Object.fromEntries(Object.entries(r.usage).map(([k, v]) => [k, (v as Decimal).toFixed()])),
});

export function renderJson(r: Report): string {
  return `${JSON.stringify(
    {
      schemaVersion: SCHEMA_VERSION,
      generatedAt: r.generatedAt,
      period: { label: r.period.label, start: isoTime(r.period.start), end: isoTime(r.period.end) },
      // Why the period has nothing to read yet (its first whole hour has not ended): then no total.
      notYet: r.period.notYet ?? null,
      previousPeriod: r.previousTotal
        ? { start: isoTime(r.period.previous.start), end: isoTime(r.period.previous.end) }
        : null,
      granularity: r.granularity,
      groupBy: r.groupBy,
      filters: r.filters,
      currency: r.currency,
      scope: r.scope ?? null,
      total: r.period.notYet !== undefined ? null : money(r.total),
      previousTotal: money(r.previousTotal),
      change: money(r.change),
      changePercent: money(r.changePercent),
      roundingGap: money(r.gap),
      budget: r.budget
        ? {
            amount: money(r.budget.amount),
            usedPercent: money(r.budget.usedPercent),
            warnPercent: r.budget.warnPercent,
            state: r.budget.state,
          }
        : null,
      usage: Object.fromEntries(Object.entries(r.usage).map(([k, v]) => [k, (v as Decimal).toFixed()])),
      rows: r.rows.map(row),
      allRows: r.allRows.map(row),
      trend: r.trend.map((p) => ({ start: p.start, end: p.end, total: money(p.total) })),
      creditBalance: r.credit ?? null,
      byocClusters: r.clusters?.map((c) => ({ id: c.id, name: c.name, cost: money(c.amount) })) ?? null,
      requests: { count: r.requests },
    },
    null,
    2,
  )}\n`;
}
