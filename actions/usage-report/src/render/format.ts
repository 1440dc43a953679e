import { escapeCell } from "@cwp/action-kit";
import { type Decimal, formatMoney, formatNumber } from "../decimal.js";

export { escapeCell, formatMoney };

/** A quantity with thousands separators and two decimals; units go in the column header. */
export const formatQuantity = formatNumber;

export function formatChange(
  change: Decimal | undefined,
  percent: Decimal | undefined,
  currency: string,
): string {
  if (!change) return "";
  const arrow = change.isZero() ? "=" : change.isNegative() ? "▼" : "▲";
  const sign = change.isNegative() || change.isZero() ? "" : "+";
  return `${arrow} ${sign}${formatMoney(change, currency)}${percent ? ` (${sign}${percent.toFixed(1)}%)` : ""}`;
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

/** A label for a trend bucket: its UTC date, month or hour. */
export function bucketLabel(start: string, granularity: "hour" | "day" | "month"): string {
  const iso = /^\d+$/.test(start) ? new Date(Number(start) * 1000).toISOString() : start;
  if (granularity === "month") return iso.slice(0, 7);
  if (granularity === "day") return iso.slice(0, 10);
  return `${iso.slice(0, 13)}h`;
}
