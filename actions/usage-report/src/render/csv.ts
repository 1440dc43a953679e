import type { Report } from "../report.js";
import { bucketLabel } from "./format.js";

// report.csv: one tidy row per period × group, amounts unrounded, safe to open in a spreadsheet.

/**
 * A cell that a spreadsheet would run as a formula gets a leading quote (OWASP CSV injection);
 * plain numbers, negative ones too, stay numbers.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (cells: readonly string[]) => `${cells.map(csvCell).join(",")}\n`;

/** The lines of report.csv, one at a time (a year of hourly rows is too large for one string). */
export function* renderCsv(r: Report): Generator<string> {
  const header = [
    "period_start",
    "period_end",
    "period",
    "group_by",
    "group_key",
    "group_name",
    "kind",
    "cost",
    "currency",
    "vcpu_hours",
    "memory_gib_hours",
    "storage_gib_hours",
    "gpu_hours",
  ];
  yield csvLine(header);
  for (const point of r.trend) {
    for (const row of point.rows.values()) {
      yield csvLine([
        point.start,
        point.end,
        bucketLabel(point.start, r.granularity),
        r.groupBy,
        row.key,
        row.label,
        row.kind,
        row.cost.toFixed(),
        r.currency,
        row.usage.vcpuHours.toFixed(),
        row.usage.memoryGibHours.toFixed(),
        row.usage.storageGibHours.toFixed(),
        row.usage.gpuHours.toFixed(),
      ]);
    }
  }
}
