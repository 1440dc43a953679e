import * as core from "@actions/core";
import { formatDuration } from "./duration.js";
import { escapeCell, escapeHtml } from "./untrusted.js";

export interface SummaryReport {
  action: string;
  /** What ran, e.g. "Build joyous-view-6290 of service web". */
  title: string;
  outcome: "success" | "failure" | "started" | "cancelled" | "timed out";
  status?: string | undefined;
  rows: Array<[label: string, value: string | undefined]>;
  durationMs?: number | undefined;
  message?: string | undefined;
  /** The last remote log lines, shown for a failure. */
  lastLines?: readonly string[] | undefined;
}

const MARK = { success: "✅", failure: "❌", started: "▶️", cancelled: "⏹️", "timed out": "⌛" } as const;

/** The job summary: what ran, where, its final status, duration and ids; untrusted text escaped. */
export function renderSummary(report: SummaryReport): string {
  const rows = [
    ...report.rows,
    ["Status", report.status],
    ["Duration", report.durationMs === undefined ? undefined : formatDuration(report.durationMs)],
    ["Message", report.message],
  ].filter((row): row is [string, string] => row[1] !== undefined && row[1] !== "");
  const lines = [
    `### ${MARK[report.outcome]} ${escapeCell(report.action)}: ${escapeCell(report.title)} (${report.outcome})`,
    "",
    "| | |",
    "|---|---|",
    ...rows.map(([label, value]) => `| ${escapeCell(label)} | ${escapeCell(value)} |`),
  ];
  if (report.lastLines && report.lastLines.length > 0) {
    lines.push(
      "",
      `<details open><summary>Last ${report.lastLines.length} log lines</summary>`,
      "",
      `<pre>${report.lastLines.map(escapeHtml).join("\n")}</pre>`,
      "",
      "</details>",
    );
  }
  return `${lines.join("\n")}\n`;
}

export async function writeSummary(report: SummaryReport): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  await core.summary.addRaw(renderSummary(report)).write();
}
