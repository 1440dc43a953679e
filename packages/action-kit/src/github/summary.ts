import { escapeCell, escapeHtml, markdownHref } from "@cwp/markdown-text";
import { formatDuration } from "../engine/duration.js";
import type { Report, SummaryRow } from "../engine/host.js";
import { redact } from "../engine/secrets.js";

/**
 * GitHub drops a job summary over 1 MiB (and the failure it reported with it): every text is cut
 * to a size, saying how much was cut.
 */
const MAX_CELL = 2000;
const MAX_LOG_LINE = 1000;

/** `text` cut to `max` characters, saying how many more there were. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)} … (${text.length - max} more characters cut)`;
}

const MARK = { success: "✅", failure: "❌", started: "▶️", cancelled: "⏹️", "timed out": "⌛" } as const;

/**
 * The job summary: what ran, where, its final status, duration and ids; masked values redacted
 * before anything is escaped (escaping would re-encode a secret past the runner's masking), then
 * untrusted text escaped.
 */
export function renderSummary(report: Report): string {
  const cell = (text: string) => escapeCell(clip(redact(text), MAX_CELL));
  const html = (text: string) => escapeHtml(clip(redact(text), MAX_LOG_LINE));
  const rows: SummaryRow[] = [
    ...report.rows,
    ["Status", report.status],
    ["Duration", report.durationMs === undefined ? undefined : formatDuration(report.durationMs)],
    ["Message", report.message],
  ];
  const lines = [
    `### ${MARK[report.outcome]} ${cell(report.action)}: ${cell(report.title)} (${report.outcome})`,
    "",
    "| | |",
    "|---|---|",
    ...rows.flatMap(([label, value, link]) =>
      value === undefined || value === "" ? [] : [`| ${cell(label)} | ${linked(cell(value), link)} |`],
    ),
  ];
  if (report.lastLines && report.lastLines.length > 0) {
    lines.push(
      "",
      `<details open><summary>Last ${report.lastLines.length} log lines</summary>`,
      "",
      `<pre>${report.lastLines.map(html).join("\n")}</pre>`,
      "",
      "</details>",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** `text` as a link to `link` where it is an http(s) URL, else as it is. */
function linked(text: string, link: string | undefined): string {
  const href = link === undefined ? undefined : markdownHref(link);
  return href === undefined ? text : `[${text}](${href})`;
}
