import { ReportOptionError } from "./errors.js";

// The report's period, in Unix seconds (UTC), and the period just before it.

export const PERIODS = [
  "month-to-date",
  "last-month",
  "last-7-days",
  "last-30-days",
  "year-to-date",
  "last-12-months",
] as const;
export type PeriodName = (typeof PERIODS)[number];

export interface Window {
  /** Inclusive, Unix seconds. */
  start: number;
  /** Exclusive, Unix seconds. */
  end: number;
}
export interface Period extends Window {
  /** What a person reads: "October 2026 (last month)", "2026-05-01 to 2026-05-14". */
  label: string;
  previous: Window;
  /** The previous period as a person reads it: "September 2026", "2026-04-17 to 2026-04-30". */
  previousLabel: string;
  /**
   * Why a period to date has nothing to read yet: in the first hour of its month (or year) it has
   * no whole billing hour, and its window is empty (start = end).
   */
  notYet?: string;
}

/** The named periods as a title says them. */
const PERIOD_WORDS: Record<PeriodName, string> = {
  "month-to-date": "month to date",
  "last-month": "last month",
  "last-7-days": "last 7 days",
  "last-30-days": "last 30 days",
  "year-to-date": "year to date",
  "last-12-months": "last 12 months",
};

const HOUR = 3600;
const DAY = 86_400;
/** The longest window one `total` request may cover (spec 4.1). */
export const MAX_TOTAL_WINDOW = 366 * DAY;

const utc = (y: number, m: number, d = 1) => Date.UTC(y, m, d) / 1000;

function parseDate(text: string, input: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const seconds = match ? utc(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!match || Number.isNaN(seconds) || new Date(seconds * 1000).toISOString().slice(0, 10) !== text)
    throw new ReportOptionError(input, "must be a date as YYYY-MM-DD (UTC)");
  return seconds;
}

/** Resolves the period inputs against `now` (ms). Billing hours are whole, so "now" is the last whole hour. */
export function resolvePeriod(
  name: PeriodName,
  explicit: { start?: string | undefined; end?: string | undefined },
  now: number,
): Period {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const today = utc(y, m, d.getUTCDate());
  const hour = Math.floor(now / 1000 / HOUR) * HOUR;
  let window: Window;
  let label: string;
  if (explicit.start !== undefined || explicit.end !== undefined) {
    if (explicit.start === undefined || explicit.end === undefined)
      throw new ReportOptionError(
        explicit.start === undefined ? "start" : "end",
        "give start and end together (dates, UTC; end included)",
      );
    window = { start: parseDate(explicit.start, "start"), end: parseDate(explicit.end, "end") + DAY };
    if (window.end <= window.start) throw new ReportOptionError("end", "must not be before start");
    // A typo in the year would otherwise be a report of nothing spent.
    if (window.start * 1000 > now)
      throw new ReportOptionError(
        "start",
        `is after today (${new Date(now).toISOString().slice(0, 10)}): nothing can have been spent in it yet`,
      );
    let soFar = "";
    // A period that has not ended yet (a quarter's report run during it) is read so far, and
    // compared with as long a time before it: against the whole previous period it would look
    // like a fall, and its trend would end in empty buckets.
    if (window.end > hour) {
      window = { start: window.start, end: hour };
      soFar = " (so far)";
    }
    label = `${windowLabel(window)}${soFar}`;
  } else {
    switch (name) {
      case "month-to-date":
        window = { start: utc(y, m), end: hour };
        break;
      case "last-month":
        window = { start: utc(y, m - 1), end: utc(y, m) };
        break;
      case "last-7-days":
        window = { start: today - 7 * DAY, end: today };
        break;
      case "last-30-days":
        window = { start: today - 30 * DAY, end: today };
        break;
      case "year-to-date":
        window = { start: utc(y, 0), end: hour };
        break;
      case "last-12-months":
        window = { start: utc(y, m - 12), end: utc(y, m) };
        break;
    }
    // The first hour of a month (or a year): billing hours are whole, and none has ended yet. An
    // hour ahead would be a window ending in the future; the period is empty, and says why.
    if (window.end <= window.start) {
      const empty = { start: window.start, end: window.start };
      return {
        ...empty,
        label: `${isoDate(window.start)} (${PERIOD_WORDS[name]})`,
        previous: empty,
        previousLabel: "",
        notYet: `The ${PERIOD_WORDS[name]} has no whole hour yet: billing hours are whole, and the first of ${isoDate(window.start)} ends at ${momentLabel(window.start + HOUR)}`,
      };
    }
    label = `${windowLabel(window)} (${PERIOD_WORDS[name]})`;
  }
  const previous = previousOf(window);
  return { ...window, label, previous, previousLabel: windowLabel(previous) };
}

/** The first of a month at 00:00 UTC, as [year, month], or undefined for any other time. */
function monthStart(seconds: number): [number, number] | undefined {
  const d = new Date(seconds * 1000);
  return d.getTime() === Date.UTC(d.getUTCFullYear(), d.getUTCMonth())
    ? [d.getUTCFullYear(), d.getUTCMonth()]
    : undefined;
}

/**
 * The period just before: whole calendar months before whole calendar months (October's is
 * September, 1 to 30, not the 31 days before October), otherwise as long a time just before.
 */
function previousOf(window: Window): Window {
  const [from, to] = [monthStart(window.start), monthStart(window.end)];
  if (from && to) {
    const months = (to[0] - from[0]) * 12 + (to[1] - from[1]);
    return { start: utc(from[0], from[1] - months), end: window.start };
  }
  return { start: window.start - (window.end - window.start), end: window.start };
}

/** The months by name, January first. */
export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const monthName = ([year, month]: [number, number]) => `${MONTHS[month]} ${year}`;

/** A moment as a person reads it: its date, and its hour when it is not midnight. */
const momentLabel = (seconds: number) =>
  seconds % DAY === 0 ? isoDate(seconds) : `${isoDate(seconds)} ${isoTime(seconds).slice(11, 16)} UTC`;

/** A window by its dates, the last day included ("2026-09-01 to 2026-09-30"), or moments. */
export function windowDates(window: Window): string {
  if (window.start % DAY === 0 && window.end % DAY === 0) {
    const lastDay = window.end - DAY;
    return lastDay === window.start
      ? isoDate(window.start)
      : `${isoDate(window.start)} to ${isoDate(lastDay)}`;
  }
  return `${momentLabel(window.start)} to ${momentLabel(window.end)}`;
}

/**
 * A window as a person reads it: whole calendar months by name ("October 2026", "March to May
 * 2026"), otherwise by its dates (`windowDates`).
 */
export function windowLabel(window: Window): string {
  const [from, to] = [monthStart(window.start), monthStart(window.end)];
  if (!from || !to) return windowDates(window);
  const last = monthStart(utc(to[0], to[1] - 1)) as [number, number];
  if (last[0] === from[0] && last[1] === from[1]) return monthName(from);
  return from[0] === last[0]
    ? `${MONTHS[from[1]]} to ${monthName(last)}`
    : `${monthName(from)} to ${monthName(last)}`;
}

/** Consecutive windows of at most 366 days covering `window` (spec 4.1: longer periods are summed). */
export function totalWindows(window: Window): Window[] {
  const out: Window[] = [];
  for (let start = window.start; start < window.end; start += MAX_TOTAL_WINDOW)
    out.push({ start, end: Math.min(window.end, start + MAX_TOTAL_WINDOW) });
  return out;
}

export const isoDate = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
export const isoTime = (seconds: number) => new Date(seconds * 1000).toISOString().replace(".000Z", "Z");

/** The billing periods (UTC calendar months) a window touches, by their starts (ms). */
export function billingPeriodStarts(window: Window): number[] {
  const starts: number[] = [];
  const first = new Date(window.start * 1000);
  for (let m = first.getUTCMonth(), y = first.getUTCFullYear(); ; m += 1) {
    const start = Date.UTC(y, m, 1);
    if (start >= window.end * 1000) break;
    starts.push(start);
  }
  return starts;
}

/**
 * Whether a window covers whole billing periods, or whole ones up to now: it starts on a month's
 * first day and ends on a month's first day, or within the month of `now` (a period so far).
 */
export function coversWholeBillingPeriods(window: Window, now: number): boolean {
  const monthStart = (seconds: number) => {
    const d = new Date(seconds * 1000);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
  };
  return (
    monthStart(window.start) === window.start &&
    (monthStart(window.end) === window.end || monthStart(window.end) === monthStart(now / 1000))
  );
}
