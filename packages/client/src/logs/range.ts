import type { LogLine } from "../schemas/observability.js";
import { type FetchLogs, type LogFilters, PageReader } from "./page-reader.js";

export interface LogRangeOptions extends LogFilters {
  /** ISO 8601, inclusive. */
  startTime: string;
  /** ISO 8601, exclusive. */
  endTime: string;
  /** `forward` (oldest first, the default) or `backward` (newest first). */
  direction?: "forward" | "backward";
  /** Lines per request. Default 1000. */
  pageSize?: number;
}

/**
 * Every page of a time range, in the range's direction, with no line lost or repeated where pages
 * meet, read on until a page brings nothing new (see `PageReader`: the platform may cap pages below
 * `pageSize`, so a short page is not the end).
 */
export function logRangePages(fetch: FetchLogs, options: LogRangeOptions): AsyncGenerator<LogLine[]> {
  const { startTime, endTime, direction = "forward", pageSize = 1000, ...filters } = options;
  const forward = direction === "forward";
  return new PageReader(fetch, {
    filters,
    direction,
    from: forward ? startTime : endTime,
    to: forward ? endTime : startTime,
    pageSize,
  }).pages();
}
