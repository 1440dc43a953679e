import { Decimal } from "../decimal.js";
import { windowDates } from "../period.js";
import type { Report, ShownRow } from "../report.js";
import {
  bucketTitle,
  creditRows,
  formatMoney,
  formatNumber,
  GROUP_TITLES,
  moneyCells,
  USAGE_COLUMNS,
} from "./format.js";

// The report for a terminal (`cwp usage-report`): the period and the comparison in words, tables
// aligned in columns, and the trend as bars of block characters. Plain text, one report line a
// line: the host that prints it keeps the platform's strings inert (no escape sequence acts).

/** The widest bar, in characters: a terminal of 80 columns keeps a label and an amount beside it. */
export const BAR_WIDTH = 40;
/** The most recent buckets drawn as bars; report.csv has every one. */
export const MAX_BARS = 31;
/** A bar's eighths, for the fraction of a character after its whole blocks. */
const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];

/** Columns aligned: the first to the left, numbers to the right, a rule under the header. */
export function textTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "─".repeat(w)).join("  "), ...rows.map(line)];
}

/** A bar of `value` where `max` is BAR_WIDTH characters long. */
export function bar(value: number, max: number): string {
  if (!(max > 0) || !(value > 0)) return "";
  const eighths = Math.round((value / max) * BAR_WIDTH * 8);
  return "█".repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] ?? "");
}

const abs = (d: Decimal) => (d.isNegative() ? Decimal.zero.minus(d) : d);

function headline(r: Report): string[] {
  const c = r.currency;
  const lines = [
    `Cloud Workload Platform costs: ${r.period.label}`,
    `${windowDates(r.period)} (UTC), by ${GROUP_TITLES[r.groupBy].toLowerCase()}; amounts in ${c}.`,
    "",
  ];
  let total = `Total: ${formatMoney(r.total, c)}`;
  if (r.previousTotal && r.change) {
    const shown = r.change.round(2);
    const by = `${formatMoney(abs(shown), c)}${r.changePercent ? ` (${formatNumber(abs(r.changePercent), 1)}%)` : ""}`;
    const how = shown.isZero() ? "the same as" : shown.isNegative() ? `down ${by} from` : `up ${by} from`;
    total += `, ${how} ${formatMoney(r.previousTotal, c)} in the period before (${r.period.previousLabel})`;
  }
  lines.push(`${total}.`);
  if (r.budget) {
    const used = r.budget.usedPercent ? `${formatNumber(r.budget.usedPercent, 1)}% used` : "none used";
    const state = {
      under: "under budget",
      warning: `over ${r.budget.warnPercent}% of the budget`,
      over: "OVER BUDGET",
    }[r.budget.state];
    lines.push(`Budget: ${formatMoney(r.budget.amount, c)}, ${used}: ${state}.`);
  }
  if (r.scope)
    lines.push(
      `Team scope: ${String(r.scope.teamName ?? r.scope.teamId ?? "this team")}, billed through its organisation (customer-level charges are not shown).`,
    );
  return [...lines, ""];
}

function costs(r: Report): string[] {
  const title = GROUP_TITLES[r.groupBy];
  const compared = r.previousTotal !== undefined;
  const cells = (cost: Decimal, previous: Decimal | undefined) => moneyCells(r, cost, previous);
  const label = (row: ShownRow) => `${row.label}${row.approximate ? " (rounded by the platform)" : ""}`;
  const rows = r.rows.map((row) => [label(row), ...cells(row.cost, row.previous)]);
  rows.push(["Total", ...cells(r.total, r.previousTotal)]);
  const header = [title, "Cost", ...(compared ? ["Previous", "Change", "Change %"] : [])];
  const gap = r.gap.round(2).isZero()
    ? []
    : [
        `The rows, each rounded to cents, come to ${formatMoney(r.total.minus(r.gap), r.currency)}; the total is the platform's, what is charged.`,
      ];
  return [`By ${title.toLowerCase()} (${r.currency})`, ...textTable(header, rows), ...gap, ""];
}

function usage(r: Report): string[] {
  const title = GROUP_TITLES[r.groupBy];
  const rows = r.rows.map((row) => [row.label, ...USAGE_COLUMNS.map(([k]) => formatNumber(row.usage[k]))]);
  rows.push(["Total", ...USAGE_COLUMNS.map(([k]) => formatNumber(r.usage[k]))]);
  return [
    `Usage by ${title.toLowerCase()}`,
    ...textTable([title, ...USAGE_COLUMNS.map(([, h]) => h)], rows),
    "",
  ];
}

function trend(r: Report): string[] {
  if (r.trend.length === 0) return [];
  const points = r.trend.slice(-MAX_BARS);
  const labels = points.map((p) => bucketTitle(p.start, r.granularity));
  const amounts = points.map((p) => formatNumber(p.total));
  const max = Math.max(0, ...points.map((p) => Number(p.total.toFixed(2))));
  const labelWidth = Math.max(...labels.map((l) => l.length));
  const amountWidth = Math.max(...amounts.map((a) => a.length));
  const unit = { hour: "Hourly", day: "Daily", month: "Monthly" }[r.granularity];
  const shown =
    points.length < r.trend.length
      ? ` (the last ${points.length} of ${r.trend.length}; report.csv has every ${r.granularity})`
      : "";
  return [
    `${unit} cost (${r.currency})${shown}`,
    ...points.map((p, i) =>
      `${(labels[i] ?? "").padEnd(labelWidth)}  ${(amounts[i] ?? "").padStart(amountWidth)}  ${bar(Number(p.total.toFixed(2)), max)}`.trimEnd(),
    ),
    "",
  ];
}

function credit(r: Report): string[] {
  if (!r.credit) return [];
  const rows = creditRows(r.credit).map(([label, amount]) => [label, amount]);
  return [`Credit balance (${r.credit.currency})`, ...textTable(["Credit", "Amount"], rows), ""];
}

function clusters(r: Report): string[] {
  if (!r.clusters || r.clusters.length === 0) return [];
  return [
    `BYOC clusters (allocation of the BYOC charge, from the period's invoices; ${r.currency})`,
    ...textTable(
      ["Cluster", "Cost"],
      r.clusters.map((cl) => [cl.name, formatNumber(cl.amount)]),
    ),
    "",
  ];
}

export function renderText(r: Report): string {
  if (r.period.notYet !== undefined)
    return [
      `Cloud Workload Platform costs: ${r.period.label}`,
      `${r.period.notYet}. There is nothing to report yet: no data file was written.`,
      `${r.requests} requests to the platform; generated ${r.generatedAt}.`,
    ].join("\n");
  return [
    ...headline(r),
    ...costs(r),
    ...usage(r),
    ...trend(r),
    ...credit(r),
    ...clusters(r),
    `${r.requests} requests to the platform; generated ${r.generatedAt}.`,
  ].join("\n");
}
