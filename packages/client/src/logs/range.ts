import type { LogLine } from "../schemas/observability.js";
import { type FetchLogs, type LogFilters, MAX_PAGE_SIZE } from "./follower.js";
import { PageCursor } from "./page-cursor.js";

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
 * meet: a page that ends part-way through a timestamp is continued from that timestamp.
 */
export async function* logRangePages(fetch: FetchLogs, options: LogRangeOptions): AsyncGenerator<LogLine[]> {
  const { startTime, endTime, direction = "forward", pageSize = 1000, ...filters } = options;
  const forward = direction === "forward";
  const cursor = new PageCursor(forward ? startTime : endTime, forward);
  let first = true;
  let limit = pageSize;
  for (;;) {
    // Backward pages end just after the cursor's timestamp, so its remaining lines come back.
    const end = forward || first ? endTime : new Date(cursor.ms + 1).toISOString();
    const lines = await fetch({
      ...filters,
      queryType: "range",
      direction,
      startTime: forward ? cursor.at : startTime,
      endTime: end,
      lineLimit: limit,
    });
    first = false;
    const fresh = cursor.take(lines);
    if (fresh.length > 0) yield fresh;
    if (lines.length < limit) return;
    if (fresh.length === 0) {
      if (limit >= MAX_PAGE_SIZE) return;
      limit = Math.min(MAX_PAGE_SIZE, limit * 4);
    } else {
      limit = pageSize;
    }
  }
}
