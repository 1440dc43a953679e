import { createHash } from "node:crypto";
import { RE2JS } from "re2js";
import { ApiFailure } from "../http.js";
import type { WorkLogLine } from "../model/work-records.js";
import { MAX_LINE_LIMIT } from "../settings.js";
import type { Container } from "./containers.js";

// Log range queries (spec 4.7): generated lines for running containers, recorded lines for builds
// and job runs, and every query parameter honoured.

export interface LogQueryParams {
  startTime?: string | undefined;
  endTime?: string | undefined;
  duration?: number | undefined;
  lineLimit?: number | undefined;
  /** The emulator's page cap: `lineLimit` is a request, not a promise (beyond-the-seed §5). */
  pageCap?: number | undefined;
  direction?: "backward" | "forward" | undefined;
  textIncludes?: string | undefined;
  textNotIncludes?: string | undefined;
  regexIncludes?: string | undefined;
  regexNotIncludes?: string | undefined;
}
interface Line {
  at: number;
  containerId: string;
  text: string;
}

/** Running containers print a line every 5 s (replicas at the same instants); kept for 7 days. */
const PERIOD_MS = 5000;
const RETENTION_MS = 7 * 86_400_000;
export const DEFAULT_LINE_LIMIT = 1000;
const DEFAULT_WINDOW_S = 3600;

/** ISO 8601 or Unix seconds (beyond-the-seed §4). */
export function parseTime(value: string, field: string): number {
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value.replace(" ", "T"));
  if (Number.isNaN(ms))
    throw new ApiFailure(400, "invalid query", { [`query.${field}`]: ["not a date-time"] });
  return ms;
}

/** The window a query asks for: [start, end), with duration fixing the missing end. */
export function window(q: LogQueryParams, now: number): { start: number; end: number } {
  const seconds = (q.duration ?? DEFAULT_WINDOW_S) * 1000;
  const start = q.startTime === undefined ? undefined : parseTime(q.startTime, "startTime");
  const end = q.endTime === undefined ? undefined : parseTime(q.endTime, "endTime");
  if (start !== undefined && end !== undefined) {
    if (end < start)
      throw new ApiFailure(400, "invalid query", { "query.endTime": ["must not be before startTime"] });
    return { start, end };
  }
  if (start !== undefined) return { start, end: q.duration !== undefined ? start + seconds : now + 1 };
  const last = end ?? now + 1;
  return { start: last - seconds, end: last };
}

/**
 * A filter pattern, run by RE2 (re2js) in time linear in the line: JavaScript's engine backtracks,
 * and `^(.+)+X$` held the emulator's one thread at 100% CPU, deaf to SIGTERM. What RE2 cannot run
 * in linear time (backreferences, lookaround) is refused like any invalid pattern.
 */
function regex(pattern: string | undefined, field: string): RE2JS | undefined {
  if (pattern === undefined) return undefined;
  try {
    return RE2JS.compile(pattern);
  } catch {
    throw new ApiFailure(400, "invalid query", {
      [`query.${field}`]: ["not a regular expression that runs in linear time (RE2 syntax)"],
    });
  }
}

function lineFilter(q: LogQueryParams): (text: string) => boolean {
  const include = regex(q.regexIncludes, "regexIncludes");
  const exclude = regex(q.regexNotIncludes, "regexNotIncludes");
  return (text) =>
    (q.textIncludes === undefined || text.includes(q.textIncludes)) &&
    (q.textNotIncludes === undefined || !text.includes(q.textNotIncludes)) &&
    (include === undefined || include.test(text)) &&
    (exclude === undefined || !exclude.test(text));
}

const PATHS = ["/", "/api/items", "/api/orders", "/health", "/api/users/me", "/static/app.js"];
function generatedText(container: Container, at: number): string {
  const n = createHash("sha256").update(`${container.podName}@${at}`).digest().readUInt32BE(0);
  const path = PATHS[n % PATHS.length];
  const ms = 3 + (n % 250);
  if (container.lines?.length) return container.lines[n % container.lines.length] ?? "";
  if (n % 97 === 0) return `ERROR upstream timeout after ${ms}ms on GET ${path}`;
  if (n % 23 === 0) return `WARN slow response GET ${path} ${ms}ms`;
  return `INFO GET ${path} ${n % 41 === 0 ? 404 : 200} ${ms}ms`;
}

/**
 * Lines of running containers in [start, end), in the query's direction: backward is forward
 * reversed, also among the lines that share an instant.
 */
function* generated(
  containers: readonly Container[],
  start: number,
  end: number,
  now: number,
  forward: boolean,
) {
  const from = Math.max(start, now - RETENTION_MS);
  const to = Math.min(end, now + 1);
  const first = Math.ceil(from / PERIOD_MS) * PERIOD_MS;
  const last = Math.floor((to - 1) / PERIOD_MS) * PERIOD_MS;
  if (last < first) return;
  for (let k = 0; k <= (last - first) / PERIOD_MS; k += 1) {
    const at = forward ? first + k * PERIOD_MS : last - k * PERIOD_MS;
    for (const c of forward ? containers : containers.toReversed())
      yield { at, containerId: c.podName, text: generatedText(c, at) };
  }
}

/** Recorded lines (builds, job runs) printed by `now` within [start, end). */
function* recorded(lines: readonly WorkLogLine[], start: number, end: number, now: number, forward: boolean) {
  const visible = lines.filter((l) => l.at <= now && l.at >= start && l.at < end);
  visible.sort((a, b) => a.at - b.at);
  yield* forward ? visible : visible.reverse();
}

function answer(source: Iterable<Line>, q: LogQueryParams) {
  const keep = lineFilter(q);
  const limit = Math.min(q.lineLimit ?? DEFAULT_LINE_LIMIT, q.pageCap ?? MAX_LINE_LIMIT, MAX_LINE_LIMIT);
  const out: Array<{ containerId: string; log: string; ts: string }> = [];
  for (const line of source) {
    if (out.length >= limit) break;
    if (keep(line.text))
      out.push({ containerId: line.containerId, log: line.text, ts: new Date(line.at).toISOString() });
  }
  return { data: out };
}

export function containerLogs(containers: readonly Container[], q: LogQueryParams, now: number) {
  const { start, end } = window(q, now);
  return answer(generated(containers, start, end, now, q.direction === "forward"), q);
}

/** Work logs default to the whole life of the work rather than the last hour. */
export function workLogs(lines: readonly WorkLogLine[], q: LogQueryParams, now: number, since: number) {
  const explicit = q.startTime !== undefined || q.endTime !== undefined || q.duration !== undefined;
  const { start, end } = explicit ? window(q, now) : { start: since, end: now + 1 };
  return answer(recorded(lines, start, end, now, q.direction === "forward"), q);
}
