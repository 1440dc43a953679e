import { parseTimestamp } from "@cwp/client";
import type { Granularity } from "../collect.js";
import { MONTHS, windowLabel } from "../period.js";
import type { TrendPoint } from "../report.js";

// The trend as Mermaid bar charts that read at a pull request's width (780 px): every bar has a
// short label of its own (an hour "07", a day of the month "14", a month "Oct") and the chart's
// title names the time they are in. Mermaid keeps one bar per distinct label, so a series whose
// short labels repeat (48 hours: "00" twice) is drawn as one chart per day, month or year, all on
// the same y-axis from zero. At most 31 bars a chart: their labels never overlap.

/** The most charts drawn: a year by day is twelve, the most recent twelve days by hour. */
export const MAX_CHARTS = 12;

const HOUR = 3600;
/** A bucket's start in Unix seconds (the platform sends seconds or an ISO time, checked as it is read). */
export const bucketSeconds = (start: string) => Math.floor((parseTimestamp(start) ?? Number.NaN) / 1000);

/** The first of the month after the one `seconds` falls in. */
export function monthAfter(seconds: number): number {
  const d = new Date(seconds * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1) / 1000;
}

/** Per granularity: a bucket's short label, the unit a chart covers at most, and the bucket's length. */
const AXIS: Record<
  Granularity,
  { short(d: Date): string; unit(d: Date): string; title: string; next(seconds: number): number }
> = {
  hour: {
    short: (d) => String(d.getUTCHours()).padStart(2, "0"),
    unit: (d) => d.toISOString().slice(0, 10),
    title: "Hourly cost",
    next: (s) => s + HOUR,
  },
  day: {
    short: (d) => String(d.getUTCDate()),
    unit: (d) => d.toISOString().slice(0, 7),
    title: "Daily cost",
    next: (s) => s + 24 * HOUR,
  },
  month: {
    short: (d) => (MONTHS[d.getUTCMonth()] as string).slice(0, 3),
    unit: (d) => d.toISOString().slice(0, 4),
    title: "Monthly cost",
    next: (s) => monthAfter(s),
  },
};

export interface Chart {
  /** "Daily cost, May 2026". */
  title: string;
  labels: string[];
  points: TrendPoint[];
}

/** The trend's charts, oldest first; the most recent MAX_CHARTS when there are more. */
export function trendCharts(points: readonly TrendPoint[], granularity: Granularity): Chart[] {
  const axis = AXIS[granularity];
  const dates = points.map((p) => new Date(bucketSeconds(p.start) * 1000));
  const shorts = dates.map((d) => axis.short(d));
  const parts: TrendPoint[][] = [];
  if (new Set(shorts).size === shorts.length && points.length <= 31) parts.push([...points]);
  else
    points.forEach((point, i) => {
      const unit = axis.unit(dates[i] as Date);
      if (i > 0 && unit === axis.unit(dates[i - 1] as Date)) parts.at(-1)?.push(point);
      else parts.push([point]);
    });
  return parts.slice(-MAX_CHARTS).map((part) => {
    const first = bucketSeconds((part[0] as TrendPoint).start);
    const last = bucketSeconds((part.at(-1) as TrendPoint).start);
    return {
      title: `${axis.title}, ${windowLabel({ start: first, end: axis.next(last) })}`,
      labels: part.map((p) => axis.short(new Date(bucketSeconds(p.start) * 1000))),
      points: part,
    };
  });
}
