import { Decimal } from "../decimal.js";
import { isoTime } from "../period.js";
import type { Report, ShownRow } from "../report.js";
import {
  bucketLabel,
  escapeCell,
  formatChange,
  formatMoney,
  formatQuantity,
  GROUP_TITLES,
  USAGE_COLUMNS,
} from "./format.js";

// The report in Markdown: the job summary, the pull request or issue comment, and report.md.
// Sections come in levels so a size limit drops the deepest details first.

/** How much to include: 2 everything, 1 without the per-bucket breakdown, 0 without any details. */
export type DetailLevel = 0 | 1 | 2;
export const MARKER = "<!-- cwp-usage-report -->";

function headline(r: Report): string[] {
  const c = r.currency;
  const parts = [`**Total: ${formatMoney(r.total, c)}**`];
  if (r.previousTotal)
    parts.push(
      `${formatChange(r.change, r.changePercent, c)} against the previous period, ${isoTime(r.period.previous.start)} to ${isoTime(r.period.previous.end)} (${formatMoney(r.previousTotal, c)})`,
    );
  if (r.budget) {
    const used = r.budget.usedPercent ? `${r.budget.usedPercent.toFixed(1)}%` : "n/a";
    const mark = {
      under: "✅ under budget",
      warning: `⚠️ over ${r.budget.warnPercent}% of the budget`,
      over: "🛑 over budget",
    }[r.budget.state];
    parts.push(`budget ${formatMoney(r.budget.amount, c)}: ${used} used, ${mark}`);
  }
  const scope = r.scope
    ? [
        `_Team scope: ${escapeCell(String(r.scope.teamName ?? r.scope.teamId ?? "this team"))}, billed through its organisation (customer-level charges are not shown)._`,
        "",
      ]
    : [];
  return [
    `## Cloud Workload Platform costs: ${escapeCell(r.period.label)}`,
    "",
    `${isoTime(r.period.start)} to ${isoTime(r.period.end)} (UTC), by ${r.groupBy}. Amounts in ${r.currency}; usage in quantities, not money.`,
    "",
    parts.join(" · "),
    "",
    ...scope,
  ];
}

function rowLine(r: Report, row: ShownRow): string {
  const c = r.currency;
  const previous = r.previousTotal
    ? [
        row.previous ? formatMoney(row.previous, c) : "",
        formatChange(
          row.previous ? row.cost.minus(row.previous) : undefined,
          row.previous ? row.cost.minus(row.previous).percentOf(row.previous) : undefined,
          c,
        ),
      ]
    : [];
  const usage = USAGE_COLUMNS.map(([k]) => formatQuantity(row.usage[k]));
  return `| ${escapeCell(row.label)}${row.approximate ? " ²" : ""} | ${formatMoney(row.cost, c)} | ${[...previous, ...usage].join(" | ")} |`;
}

function table(r: Report, rows: readonly ShownRow[], title: string): string[] {
  const previous = r.previousTotal ? ["Previous", "Change"] : [];
  const header = [title, "Cost", ...previous, ...USAGE_COLUMNS.map(([, h]) => h)];
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...rows.map((row) => rowLine(r, row)),
  ];
}

function footnotes(r: Report): string[] {
  const notes: string[] = [];
  if (!r.gap.isZero())
    notes.push(
      `¹ Each row is rounded to cents from the platform's unrounded amounts; together they come to ${formatMoney(r.total.minus(r.gap), r.currency)}, ${formatMoney(r.gap, r.currency)} away from the total the platform returned (${formatMoney(r.total, r.currency)}). The platform's total is what is charged.`,
    );
  if (r.rows.some((row) => row.approximate))
    notes.push("² The platform returned only a rounded total for this row.");
  return notes.length > 0 ? ["", ...notes] : [];
}

/** The most x-axis labels the chart shows: 31 daily labels overlap. */
const MAX_AXIS_LABELS = 16;

/**
 * The chart's x-axis: every k-th bucket labelled, so at most 16 show. Mermaid's axis keeps one bar
 * per distinct category, so each unlabelled bucket gets a distinct invisible one (its index in
 * zero-width characters) rather than an empty label.
 */
export function axisLabels(labels: readonly string[]): string[] {
  const every = Math.ceil(labels.length / MAX_AXIS_LABELS);
  const invisible = (i: number) =>
    [...i.toString(2)].map((bit) => (bit === "0" ? "\u200b" : "\u200c")).join("");
  return labels.map((label, i) => (i % every === 0 ? label : invisible(i)));
}

/**
 * The report with its currencies as Markdown text: the platform's strings are shown, never acted
 * on (labels and names are escaped where they are written).
 */
function shownAsText(r: Report): Report {
  return {
    ...r,
    currency: escapeCell(r.currency),
    credit: r.credit && { ...r.credit, currency: escapeCell(r.credit.currency) },
  };
}

/** Text inside the chart's quotes: letters, digits and plain punctuation only. */
const chartText = (text: string) => text.replace(/[^\p{L}\p{N} .,()%/-]/gu, "");

/** The trend, `r` already shown as text; the chart keeps its own characters of the platform's currency. */
function trend(r: Report, platformCurrency: string): string[] {
  if (r.trend.length === 0) return [];
  const labels = r.trend.map((p) => bucketLabel(p.start, r.granularity));
  const values = r.trend.map((p) => p.total.toFixed(2));
  // From zero (or below, for credits): an axis that starts near the smallest bar makes every
  // change look larger than it is.
  const numbers = values.map(Number);
  const [low, high] = [Math.min(0, ...numbers), Math.max(0, ...numbers)];
  const unit = { hour: "Hourly", day: "Daily", month: "Monthly" }[r.granularity];
  const quote = (s: string) => `"${s}"`;
  const currency = chartText(platformCurrency);
  return [
    `### ${unit} cost`,
    "",
    "```mermaid",
    "xychart-beta",
    `  title ${quote(`${unit} cost (${currency})`)}`,
    `  x-axis [${axisLabels(labels.map(chartText)).map(quote).join(", ")}]`,
    `  y-axis ${quote(currency)} ${low} --> ${high === low ? 1 : high}`,
    `  bar [${values.join(", ")}]`,
    "```",
    "",
    `<details><summary>The same numbers</summary>`,
    "",
    `| ${{ hour: "Hour", day: "Day", month: "Month" }[r.granularity]} | Cost |`,
    "|---|---:|",
    ...r.trend.map((p, i) => `| ${escapeCell(labels[i] ?? "")} | ${formatMoney(p.total, r.currency)} |`),
    "",
    "</details>",
    "",
  ];
}

function credit(r: Report): string[] {
  if (!r.credit) return [];
  const c = r.credit.currency;
  const money = (n: number) => formatMoney(Decimal.from(n), c);
  const balance = r.credit.customerBalance.amount;
  return [
    "### Credit balance",
    "",
    "| | |",
    "|---|---:|",
    `| Available now | ${money(r.credit.total.available)} |`,
    `| Pending | ${money(r.credit.total.pending)} |`,
    `| Credit grants (available / pending) | ${money(r.credit.grants.available)} / ${money(r.credit.grants.pending)} |`,
    balance < 0
      ? `| **Owed** (unpaid invoices) | **${money(-balance)}** |`
      : `| Account credit | ${money(balance)} |`,
    "",
  ];
}

function clusters(r: Report): string[] {
  if (!r.clusters || r.clusters.length === 0) {
    // BYOC is charged here, but only invoices allocate it per cluster.
    return r.rows.some((row) => row.key === "customer:byoc")
      ? ["_BYOC cluster allocations come from invoices; this period holds no whole invoiced month._", ""]
      : [];
  }
  return [
    "### BYOC clusters (allocation of the BYOC charge, from the period's invoices)",
    "",
    "| Cluster | Cost |",
    "|---|---:|",
    ...r.clusters.map((cl) => `| ${escapeCell(cl.name)} | ${formatMoney(cl.amount, r.currency)} |`),
    "",
  ];
}

function details(r: Report, level: DetailLevel): string[] {
  const out: string[] = [];
  if (level >= 1 && r.allRows.length > r.rows.length) {
    out.push(
      `<details><summary>All ${r.allRows.length} rows</summary>`,
      "",
      ...table(r, r.allRows, GROUP_TITLES[r.groupBy]),
      "",
      "</details>",
      "",
    );
  }
  if (level >= 2 && r.trend.length > 0) {
    const keys = r.rows.filter((row) => row.key !== "other").map((row) => row.key);
    const header = [
      "Period",
      ...keys.map((k) => escapeCell(r.rows.find((row) => row.key === k)?.label ?? k)),
    ];
    out.push(
      `<details><summary>Each ${r.granularity} by ${r.groupBy}</summary>`,
      "",
      `| ${header.join(" | ")} |`,
      `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
      ...r.trend.map(
        (p) =>
          `| ${escapeCell(bucketLabel(p.start, r.granularity))} | ${keys.map((k) => (p.rows.get(k)?.cost ?? Decimal.zero).toFixed(2)).join(" | ")} |`,
      ),
      "",
      "</details>",
      "",
    );
  }
  return out;
}

export function renderMarkdown(report: Report, level: DetailLevel, trimmedNote?: string): string {
  const r = shownAsText(report);
  // The gap's footnote mark goes in the label's cell, as a row's own mark does: after the row's
  // last pipe it would be a cell the header does not have, which GitHub drops.
  const totalRow = `| **Total (as the platform returned it)**${r.gap.isZero() ? "" : " ¹"} | **${formatMoney(r.total, r.currency)}** |${r.previousTotal ? ` ${formatMoney(r.previousTotal, r.currency)} | ${formatChange(r.change, r.changePercent, r.currency)} |` : ""} ${USAGE_COLUMNS.map(([k]) => formatQuantity(r.usage[k])).join(" | ")} |`;
  return [
    MARKER,
    ...headline(r),
    `### By ${r.groupBy}${r.rows.some((row) => row.key === "other") ? " (top rows, then the rest)" : ""}`,
    "",
    ...table(r, r.rows, GROUP_TITLES[r.groupBy]),
    totalRow,
    ...footnotes(r),
    "",
    ...trend(r, report.currency),
    ...credit(r),
    ...clusters(r),
    ...details(r, level),
    ...(trimmedNote ? [`> ${trimmedNote}`, ""] : []),
    `<sub>${r.requests} requests to the platform · generated ${r.generatedAt}</sub>`,
    "",
  ].join("\n");
}

/**
 * The most detailed rendering that fits `limit` (bytes for the job summary, characters for a
 * comment), saying what was dropped.
 */
export function fitMarkdown(r: Report, limit: number, measure: (text: string) => number): string {
  const notes = {
    1: "Trimmed to fit GitHub's size limit: the per-period breakdown was left out (report.md and report.csv have it).",
    0: "Trimmed to fit GitHub's size limit: the detailed breakdowns were left out (report.md and report.csv have them).",
  } as const;
  for (const level of [2, 1, 0] as const) {
    const text = renderMarkdown(r, level, level === 2 ? undefined : notes[level]);
    if (measure(text) <= limit) return text;
  }
  const short = renderMarkdown(
    { ...r, trend: [], allRows: r.rows },
    0,
    "Trimmed to fit GitHub's size limit: only the headline and the top rows are shown (report.md has everything).",
  );
  return measure(short) <= limit
    ? short
    : `${MARKER}\n## Cloud Workload Platform costs\n\n**Total: ${formatMoney(r.total, escapeCell(r.currency))}**\n\n> The report is too large to show here: see report.md.\n`;
}
