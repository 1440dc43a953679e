import { typicalDurations } from "@cwp/client";
import { MAX_DURATION_MS } from "../inputs/parsers.js";

/**
 * A `timeout` to suggest for work whose recent runs took `durationsMs`: the longest of the usual
 * runs (outliers left out, as the waits plan with: one run of 100 hours among runs of 2 minutes
 * says nothing of the next) and half as much again, in whole minutes, at most what the input
 * takes, written as a person writes it: `2h`, `1h30m`, `45m`.
 */
export function suggestedTimeout(durationsMs: readonly number[]): string {
  const longest = Math.max(...typicalDurations(durationsMs));
  const minutes = Math.min(Math.ceil((longest * 1.5) / 60_000), MAX_DURATION_MS / 60_000);
  const hours = Math.floor(minutes / 60);
  return `${hours ? `${hours}h` : ""}${minutes % 60 || !hours ? `${minutes % 60}m` : ""}`;
}
