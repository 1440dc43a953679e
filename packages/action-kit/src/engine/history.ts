import { AbortedError } from "@cwp/client";
import { formatDuration } from "./duration.js";
import { debug, say } from "./host.js";

/**
 * How long earlier runs of the same work took (one read), for the waiter to poll where such work
 * usually ends. Best-effort: without it the waiter backs off evenly, so a failed read is only a
 * debug line. `what` names the runs in the log: one ("build of service web") and many ("builds of
 * service web").
 */
export async function recentDurations(
  what: { one: string; many: string },
  read: () => Promise<number[]>,
): Promise<number[]> {
  try {
    const durations = await read();
    const sorted = [...durations].sort((a, b) => a - b);
    const middle = median(sorted) ?? 0;
    if (sorted.length === 1) say(`The last successful ${what.one} took ${formatDuration(middle)}.`);
    else if (sorted.length > 1)
      say(
        `The last ${sorted.length} successful ${what.many} took ${formatDuration(sorted[0] as number)} to ${formatDuration(sorted.at(-1) as number)} (median ${formatDuration(middle)}).`,
      );
    return durations;
  } catch (error) {
    if (error instanceof AbortedError) throw error;
    debug(`No history of ${what.many}: ${(error as Error).message}`);
    return [];
  }
}

/** The middle one of some durations (the upper middle of an even count), undefined of none. */
export function median(durations: readonly number[]): number | undefined {
  const sorted = [...durations].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
