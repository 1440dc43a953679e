import { escapeCell } from "@cwp/markdown-text";
import type { Granularity } from "../collect.js";
import { Decimal, formatMoney, formatNumber, formatSigned } from "../decimal.js";
import { windowLabel } from "../period.js";
import type { Report } from "../report.js";
import { bucketSeconds, monthAfter } from "./chart.js";

export { escapeCell, formatMoney, formatNumber, formatSigned };

/** A change in a sentence: "▼ -132.09 USD (-4.4%)", its arrow and signs as the rounded amount's. */
export function formatChange(change: Decimal, percent: Decimal | undefined, currency: string): string {
  const shown = change.round(2);
  const arrow = shown.isZero() ? "=" : shown.isNegative() ? "▼" : "▲";
  return `${arrow} ${formatSigned(change)} ${currency}${percent ? ` (${formatSigned(percent, 1)}%)` : ""}`;
}

export const USAGE_COLUMNS = [
  ["vcpuHours", "vCPU-hours"],
  ["memoryGibHours", "Memory GiB-hours"],
  ["storageGibHours", "Storage GiB-hours"],
  ["gpuHours", "GPU-hours"],
] as const;

export const GROUP_TITLES = {
  team: "Team",
  project: "Project",
  "resource-type": "Resource type",
  resource: "Resource",
} as const;

/** A trend bucket in report.csv: its UTC date ("2026-05-14"), month ("2026-05") or hour ("2026-06-01T07h"). */
export function bucketLabel(start: string, granularity: Granularity): string {
  const iso = new Date(bucketSeconds(start) * 1000).toISOString();
  if (granularity === "month") return iso.slice(0, 7);
  if (granularity === "day") return iso.slice(0, 10);
  return `${iso.slice(0, 13)}h`;
}

/** A trend bucket as a person reads it: "2026-05-14", "May 2026", "2026-06-01 07:00". */
export function bucketTitle(start: string, granularity: Granularity): string {
  const seconds = bucketSeconds(start);
  if (granularity === "month") return windowLabel({ start: seconds, end: monthAfter(seconds) });
  const iso = new Date(seconds * 1000).toISOString();
  return granularity === "day" ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** The credit balance's rows, label and amount, as both the Markdown and the text show them. */
export function creditRows(
  credit: NonNullable<Report["credit"]>,
): Array<[label: string, amount: string, owed: boolean]> {
  const amount = (n: number) => formatNumber(Decimal.from(n));
  const balance = credit.customerBalance.amount;
  return [
    ["Available now", amount(credit.total.available), false],
    ["Pending", amount(credit.total.pending), false],
    ["Credit grants available", amount(credit.grants.available), false],
    ["Credit grants pending", amount(credit.grants.pending), false],
    balance < 0
      ? ["Owed (unpaid invoices)", amount(-balance), true]
      : ["Account credit", amount(balance), false],
  ];
}

/** The money columns of a row: its cost, and with a comparison its previous cost and the change. */
export function moneyCells(r: Report, cost: Decimal, previous: Decimal | undefined): string[] {
  if (!r.previousTotal) return [formatNumber(cost)];
  if (!previous) return [formatNumber(cost), "–", "–", "–"];
  const change = cost.minus(previous);
  const percent = change.percentOf(previous);
  return [
    formatNumber(cost),
    formatNumber(previous),
    formatSigned(change),
    percent ? `${formatSigned(percent, 1)}%` : "–",
  ];
}
