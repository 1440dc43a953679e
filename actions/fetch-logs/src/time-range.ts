import { InputError } from "@cwp/action-kit";
import { LOG_CLOCK_SKEW_MS, parseTimestamp } from "@cwp/client";

// The range fetch-logs reads, made explicit before the first request so every page asks for the
// same range. Relative times count from the runner's clock.

const DEFAULT_WINDOW_MS = 3_600_000;
/**
 * How far the platform's clock may run ahead of the runner's, the client's own tolerance for log
 * lines: a time the platform gave (restart-service's `restarted-at`) a few seconds "in the future"
 * is a start, and the range then ends as far past the runner's now, so the lines printed since are
 * read.
 */
export const CLOCK_SKEW_MS = LOG_CLOCK_SKEW_MS;

export function parseTime(value: string, input: string): number {
  const ms = parseTimestamp(value);
  if (ms === undefined) throw new InputError(input, "must be an ISO 8601 date-time (or Unix seconds)");
  return ms;
}

export function timeRange(
  start: string | undefined,
  end: string | undefined,
  durationMs: number | undefined,
  now: number,
): { startTime: string; endTime: string } {
  if (start && end && durationMs !== undefined)
    throw new InputError("duration", "with duration, give at most one of start-time and end-time");
  const from = start === undefined ? undefined : parseTime(start, "start-time");
  const to = end === undefined ? undefined : parseTime(end, "end-time");
  const span = durationMs ?? DEFAULT_WINDOW_MS;
  const ahead = from !== undefined && from > now && from <= now + CLOCK_SKEW_MS;
  const endMs =
    to ?? (from !== undefined && durationMs !== undefined ? from + span : ahead ? now + CLOCK_SKEW_MS : now);
  const startMs = from ?? endMs - span;
  if (endMs > startMs)
    return { startTime: new Date(startMs).toISOString(), endTime: new Date(endMs).toISOString() };
  // Only start-time given: the range ends now, so the start is what is wrong.
  if (to === undefined && durationMs === undefined)
    throw new InputError(
      "start-time",
      `must be before now (${new Date(now).toISOString()}): without end-time the range ends now`,
    );
  throw new InputError("end-time", "must be later than start-time");
}
