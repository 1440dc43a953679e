import type { Granularity } from "../collect.js";
import type { GroupBy, Row } from "../group.js";
import type { TrendPoint } from "../report.js";
import { bucketLabel } from "./format.js";

// report.csv: one tidy row per period × group, amounts unrounded, safe to open in a spreadsheet;
// written bucket by bucket as the trend is read (a year of hourly rows is too large to hold).

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what a cell never holds raw.
const CONTROL = /[\x00-\x1f\x7f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the same, each replaced.
const CONTROLS = /[\x00-\x1f\x7f]/g;

/**
 * A cell that a spreadsheet would run as a formula gets a leading quote (OWASP CSV injection);
 * plain numbers, negative ones too, stay numbers. No control character is written raw (a NUL ends
 * a string in many readers): a line break in a name becomes a space, any other one `�`.
 */
export function csvCell(value: string): string {
  const text = CONTROL.test(value) ? value.replace(/\r\n|\r|\n/g, " ").replace(CONTROLS, "\ufffd") : value;
  const safe = /^[=+\-@]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (cells: readonly string[]) => `${cells.map(csvCell).join(",")}\n`;

/** What every line of report.csv repeats. */
export interface CsvContext {
  granularity: Granularity;
  groupBy: GroupBy;
  currency: string;
}

export const CSV_HEADER = csvLine([
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
]);

/** The lines of report.csv for one trend bucket, written as the bucket is read. */
export function* csvBucketLines(point: TrendPoint, rows: Iterable<Row>, r: CsvContext): Generator<string> {
  for (const row of rows) {
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
