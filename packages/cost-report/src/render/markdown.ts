import { Decimal } from "../decimal.js";
import { windowDates } from "../period.js";
import type { Report, ShownRow } from "../report.js";
import { trendCharts } from "./chart.js";
import {
  bucketTitle,
  creditRows,
  escapeCell,
  formatChange,
  formatMoney,
  formatNumber,
  GROUP_TITLES,
  moneyCells,
  USAGE_COLUMNS,
} from "./format.js";

// The report in Markdown: the job summary, the pull request or issue comment, and report.md.
// Sections come in levels so a size limit drops the deepest details first. It is read at a pull
// request's width (780 px): a table's amounts are bare numbers (the currency is named once, in
// the header), so no cell breaks over two lines; usage quantities have a table of their own.

/** How much to include: 2 everything, 1 without the per-bucket breakdown, 0 without any details. */
export type DetailLevel = 0 | 1 | 2;
export const MARKER = "<!-- cwp-usage-report -->";

/** The grouping in a sentence: "by resource type". */
const groupWords = (r: Report) => GROUP_TITLES[r.groupBy].toLowerCase();

function headline(r: Report): string[] {
  const c = r.currency;
  const parts = [`**Total: ${formatMoney(r.total, c)}**`];
  if (r.previousTotal && r.change)
    parts.push(
      `${formatChange(r.change, r.changePercent, c)} against the previous period, ${r.period.previousLabel} (${formatMoney(r.previousTotal, c)})`,
    );
  if (r.budget) {
    const used = r.budget.usedPercent ? `${formatNumber(r.budget.usedPercent, 1)}%` : "n/a";
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
    `${windowDates(r.period)} (UTC), by ${groupWords(r)}. Amounts in ${r.currency}; usage in quantities, not money.`,
    "",
    parts.join(" · "),
    "",
    ...scope,
  ];
}

/** A Markdown table: the first column left, the others (numbers) right. */
function grid(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ];
}

const rowTitle = (row: ShownRow) => `${escapeCell(row.label)}${row.approximate ? " ²" : ""}`;

/** The rows' costs, and their total when `total` is given. */
function costTable(r: Report, rows: readonly ShownRow[], title: string, total?: string): string[] {
  const c = r.currency;
  const previous = r.previousTotal ? [`Previous (${c})`, `Change (${c})`, "Change (%)"] : [];
  const body = rows.map((row) => [rowTitle(row), ...moneyCells(r, row.cost, row.previous)]);
  if (total !== undefined) {
    const [cost, ...rest] = moneyCells(r, r.total, r.previousTotal);
    body.push([total, `**${cost}**`, ...rest]);
  }
  return grid([title, `Cost (${c})`, ...previous], body);
}

/** The rows' usage, in quantities. */
function usageTable(r: Report, rows: readonly ShownRow[], title: string, total: boolean): string[] {
  const body = rows.map((row) => [rowTitle(row), ...USAGE_COLUMNS.map(([k]) => formatNumber(row.usage[k]))]);
  if (total) body.push(["**Total**", ...USAGE_COLUMNS.map(([k]) => formatNumber(r.usage[k]))]);
  return grid([title, ...USAGE_COLUMNS.map(([, h]) => h)], body);
}

function footnotes(r: Report): string[] {
  const notes: string[] = [];
  if (!r.gap.round(2).isZero())
    notes.push(
      `¹ Each row is rounded to cents from the platform's unrounded amounts; together they come to ${formatMoney(r.total.minus(r.gap), r.currency)}, ${formatMoney(r.gap, r.currency)} away from the total the platform returned (${formatMoney(r.total, r.currency)}). The platform's total is what is charged.`,
    );
  if (r.rows.some((row) => row.approximate))
    notes.push("² The platform returned only a rounded total for this row.");
  return notes.length > 0 ? ["", ...notes] : [];
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

/** The heading of a table's column of trend buckets. */
const BUCKET_TITLES = { hour: "Hour (UTC)", day: "Day", month: "Month" } as const;

/** Text inside the chart's quotes: letters, digits and plain punctuation only. */
const chartText = (text: string) => text.replace(/[^\p{L}\p{N} .,()%/-]/gu, "");

/**
 * The bars' colour, the same in GitHub's light and dark themes (Mermaid's default palette draws
 * them in its palest colour, hard to see on a white page): GitHub's own emphasis blue, #1f6feb,
 * 4.6:1 against the light background (#ffffff) and 4.1:1 against the dark one (#0d1117), over the
 * 3:1 that graphics need (WCAG 2.2, 1.4.11). The browser test measures it on the drawn page.
 */
export const BAR_COLOUR = `%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "#1f6feb"}}}}%%`;

/** The trend, `r` already shown as text; the charts keep their own characters of the platform's currency. */
function trend(r: Report, platformCurrency: string): string[] {
  if (r.trend.length === 0) return [];
  const charts = trendCharts(r.trend, r.granularity);
  const numbers = r.trend.map((p) => Number(p.total.toFixed(2)));
  // From zero (or below, for credits), the same for every chart: an axis that starts near the
  // smallest bar makes every change look larger than it is.
  const [low, high] = [Math.min(0, ...numbers), Math.max(0, ...numbers)];
  const unit = { hour: "Hourly", day: "Daily", month: "Monthly" }[r.granularity];
  const quote = (s: string) => `"${chartText(s)}"`;
  const currency = chartText(platformCurrency);
  const drawn = charts.reduce((n, chart) => n + chart.points.length, 0);
  return [
    `### ${unit} cost`,
    "",
    ...(drawn < r.trend.length
      ? [`_The last ${charts.length} charts are drawn; the table below has every ${r.granularity}._`, ""]
      : []),
    ...charts.flatMap((chart) => [
      "```mermaid",
      BAR_COLOUR,
      "xychart-beta",
      `  title ${quote(`${chart.title} (${currency})`)}`,
      `  x-axis [${chart.labels.map(quote).join(", ")}]`,
      `  y-axis ${quote(currency)} ${low} --> ${high === low ? 1 : high}`,
      `  bar [${chart.points.map((p) => p.total.toFixed(2)).join(", ")}]`,
      "```",
      "",
    ]),
    `<details><summary>The same numbers</summary>`,
    "",
    ...grid(
      [BUCKET_TITLES[r.granularity], `Cost (${r.currency})`],
      r.trend.map((p) => [escapeCell(bucketTitle(p.start, r.granularity)), formatNumber(p.total)]),
    ),
    "",
    "</details>",
    "",
  ];
}

function credit(r: Report): string[] {
  if (!r.credit) return [];
  return [
    "### Credit balance",
    "",
    ...grid(
      ["Credit", `Amount (${r.credit.currency})`],
      creditRows(r.credit).map(([label, amount, owed]) =>
        owed ? [label.replace("Owed", "**Owed**"), `**${amount}**`] : [label, amount],
      ),
    ),
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
    ...grid(
      ["Cluster", `Cost (${r.currency})`],
      r.clusters.map((cl) => [escapeCell(cl.name), formatNumber(cl.amount)]),
    ),
    "",
  ];
}

function details(r: Report, level: DetailLevel): string[] {
  const out: string[] = [];
  const title = GROUP_TITLES[r.groupBy];
  if (level >= 1 && r.allRows.length > r.rows.length) {
    out.push(
      `<details><summary>All ${r.allRows.length} rows</summary>`,
      "",
      ...costTable(r, r.allRows, title),
      "",
      ...usageTable(r, r.allRows, title, false),
      "",
      "</details>",
      "",
    );
  }
  if (level >= 2 && r.trend.length > 0) {
    const keys = r.rows.filter((row) => row.key !== "other").map((row) => row.key);
    const header = [
      BUCKET_TITLES[r.granularity],
      ...keys.map((k) => escapeCell(r.rows.find((row) => row.key === k)?.label ?? k)),
    ];
    out.push(
      `<details><summary>Each ${r.granularity} by ${groupWords(r)} (${r.currency})</summary>`,
      "",
      ...grid(
        header,
        r.trend.map((p) => [
          escapeCell(bucketTitle(p.start, r.granularity)),
          ...keys.map((k) => formatNumber(p.rows.get(k)?.cost ?? Decimal.zero)),
        ]),
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
  // Nothing billed yet to report: the title and why, not a total of nothing.
  if (r.period.notYet !== undefined)
    return [
      MARKER,
      `## Cloud Workload Platform costs: ${escapeCell(r.period.label)}`,
      "",
      `${r.period.notYet}. There is nothing to report yet: no data file was written.`,
      "",
      `<sub>${r.requests} requests to the platform · generated ${r.generatedAt}</sub>`,
      "",
    ].join("\n");
  const title = GROUP_TITLES[r.groupBy];
  const rest = r.rows.some((row) => row.key === "other") ? " (top rows, then the rest)" : "";
  // The gap's footnote mark goes in the label's cell, as a row's own mark does: after the row's
  // last pipe it would be a cell the header does not have, which GitHub drops.
  const total = `**Total (as the platform returned it)**${r.gap.round(2).isZero() ? "" : " ¹"}`;
  return [
    MARKER,
    ...headline(r),
    `### By ${groupWords(r)}${rest}`,
    "",
    ...costTable(r, r.rows, title, total),
    ...footnotes(r),
    "",
    `### Usage by ${groupWords(r)}`,
    "",
    ...usageTable(r, r.rows, title, true),
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
