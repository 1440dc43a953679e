import type { CallOptions } from "../core/core.js";
import { parseTimestamp } from "../timestamps.js";

export interface HistoryOptions extends CallOptions {
  /**
   * The run being waited on, left out: short work started a moment ago may have concluded by the
   * time the history is read, and is not its own history.
   */
  except?: string | undefined;
}

/** Recent runs asked for when a waiter wants history: one page. */
export const HISTORY_SIZE = 20;

/**
 * How long each of the given runs took, ms, for the successful ones whose start and end are both
 * known: what `expectedDurationsMs` wants. Failed runs are left out: they end early, at any time.
 */
export function durationsOf<T>(
  runs: readonly T[],
  times: (run: T) => { start: string | number | null | undefined; end: string | number | null | undefined },
  succeeded: (run: T) => boolean,
): number[] {
  return runs.flatMap((run) => {
    if (!succeeded(run)) return [];
    const { start, end } = times(run);
    const from = parseTimestamp(start);
    const to = parseTimestamp(end);
    // A time in whole Unix seconds (`buildConcludedAt`) was cut down to its second: take the
    // middle of that second, or short builds look up to a second shorter than they are.
    const cut = typeof end === "number" || (typeof end === "string" && /^\d+$/.test(end)) ? 500 : 0;
    return from !== undefined && to !== undefined && to + cut > from ? [to + cut - from] : [];
  });
}
