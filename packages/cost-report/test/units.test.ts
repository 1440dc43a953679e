import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Decimal, decimalText, formatMoney, formatNumber, formatSigned } from "../src/decimal.js";
import { resolvePeriod, totalWindows } from "../src/period.js";
import { MAX_CHARTS, trendCharts } from "../src/render/chart.js";
import { csvCell } from "../src/render/csv.js";
import { LineFile } from "../src/render/line-file.js";
import type { TrendPoint } from "../src/report.js";

describe("Decimal", () => {
  it("adds what floats cannot", () => {
    expect(Decimal.sum([0.1, 0.2].map((v) => Decimal.from(v))).toFixed()).toBe("0.3");
    expect(Decimal.from(1e-7).plus(Decimal.from("2.5e-7")).toFixed()).toBe("0.00000035");
    expect(Decimal.from("-12.5").plus(Decimal.from(2)).toFixed()).toBe("-10.5");
  });

  it("reads a JSON number as its shortest text says, amounts of up to six decimals too", () => {
    const numbers = [0, -0, 1, -1, 0.000001, -0.000001, 123456789.123456, 999999999.999999, 1e-7, 1e21];
    for (let i = 0; i < 20_000; i++)
      numbers.push(((i % 2 ? 1 : -1) * Math.round(Math.random() * 10 ** (i % 16))) / 10 ** (i % 8));
    for (const n of numbers)
      expect(Decimal.from(n).toFixed(), String(n)).toBe(Decimal.from(String(n)).toFixed());
  });

  it("rounds half away from zero, as the platform's totals", () => {
    expect(Decimal.from("2.345").round(2).toFixed(2)).toBe("2.35");
    expect(Decimal.from("-2.345").round(2).toFixed(2)).toBe("-2.35");
    expect(Decimal.from("2.344999").toFixed(2)).toBe("2.34");
    expect(Decimal.from(50).percentOf(Decimal.from(200))?.toFixed(1)).toBe("25.0");
    expect(Decimal.from(1).percentOf(Decimal.zero)).toBeUndefined();
    expect(formatMoney(Decimal.from("1234567.891"), "EUR")).toBe("1,234,567.89 EUR");
  });
});

describe("periods", () => {
  const now = Date.UTC(2026, 10, 21, 20, 35);
  it("resolves named periods in UTC, month-to-date with the previous period of the same length", () => {
    const mtd = resolvePeriod("month-to-date", {}, now);
    expect([mtd.start, mtd.end]).toEqual([Date.UTC(2026, 10, 1) / 1000, Date.UTC(2026, 10, 21, 20) / 1000]);
    expect(mtd.previous.end).toBe(mtd.start);
    expect(mtd.previous.end - mtd.previous.start).toBe(mtd.end - mtd.start);
    const lastMonth = resolvePeriod("last-month", {}, now);
    expect([lastMonth.start, lastMonth.end]).toEqual([
      Date.UTC(2026, 9, 1) / 1000,
      Date.UTC(2026, 10, 1) / 1000,
    ]);
    const explicit = resolvePeriod("month-to-date", { start: "2024-01-01", end: "2025-12-31" }, now);
    expect(explicit.end).toBe(Date.UTC(2026, 0, 1) / 1000);
    const windows = totalWindows(explicit);
    expect(windows).toHaveLength(2);
    expect(windows.every((w) => w.end - w.start <= 366 * 86_400)).toBe(true);
    expect(windows[1]?.end).toBe(explicit.end);
  });

  it("compares whole calendar months with as many calendar months before, anything else with as long a time", () => {
    const october = resolvePeriod("last-month", {}, now);
    expect([october.previous.start, october.previous.end]).toEqual([
      Date.UTC(2026, 8, 1) / 1000,
      Date.UTC(2026, 9, 1) / 1000,
    ]);
    const quarter = resolvePeriod("month-to-date", { start: "2026-03-01", end: "2026-05-31" }, now);
    expect([quarter.previous.start, quarter.previous.end]).toEqual([
      Date.UTC(2025, 11, 1) / 1000,
      Date.UTC(2026, 2, 1) / 1000,
    ]);
    const days = resolvePeriod("last-7-days", {}, now);
    expect(days.previous.end - days.previous.start).toBe(days.end - days.start);
  });

  it("reads an explicit period that has not ended so far, against as long a time before it", () => {
    const quarter = resolvePeriod("month-to-date", { start: "2026-10-01", end: "2026-12-31" }, now);
    expect([quarter.start, quarter.end]).toEqual([
      Date.UTC(2026, 9, 1) / 1000,
      Date.UTC(2026, 10, 21, 20) / 1000,
    ]);
    expect(quarter.previous.end - quarter.previous.start).toBe(quarter.end - quarter.start);
    expect(quarter.label).toBe("2026-10-01 to 2026-11-21 20:00 UTC (so far)");
  });
});

describe("periods as people read them", () => {
  const now = Date.UTC(2026, 10, 21, 20, 35);
  it("names calendar months, says what a named period meant, and gives other periods as days", () => {
    const lastMonth = resolvePeriod("last-month", {}, now);
    expect(lastMonth.label).toBe("October 2026 (last month)");
    expect(lastMonth.previousLabel).toBe("September 2026");
    expect(resolvePeriod("last-12-months", {}, now).label).toBe(
      "November 2025 to October 2026 (last 12 months)",
    );
    expect(resolvePeriod("month-to-date", { start: "2026-03-01", end: "2026-05-31" }, now).label).toBe(
      "March to May 2026",
    );
    const week = resolvePeriod("last-7-days", {}, now);
    expect(week.label).toBe("2026-11-14 to 2026-11-20 (last 7 days)");
    expect(week.previousLabel).toBe("2026-11-07 to 2026-11-13");
    const mtd = resolvePeriod("month-to-date", {}, now);
    expect(mtd.label).toBe("2026-11-01 to 2026-11-21 20:00 UTC (month to date)");
    expect(resolvePeriod("month-to-date", { start: "2026-05-01", end: "2026-05-01" }, now).label).toBe(
      "2026-05-01",
    );
  });
});

describe("numbers for people", () => {
  it("never shows a negative zero, and signs a change as it is rounded", () => {
    expect(formatNumber(Decimal.from("-0.004"))).toBe("0.00");
    expect(formatSigned(Decimal.from("-0.004"))).toBe("0.00");
    expect(formatSigned(Decimal.from("0.004"))).toBe("0.00");
    expect(formatSigned(Decimal.from("0.005"))).toBe("+0.01");
    expect(formatSigned(Decimal.from("-1234.5"))).toBe("-1,234.50");
    expect(formatSigned(Decimal.from("-0.04"), 1)).toBe("0.0");
  });
});

describe("the trend's charts", () => {
  const series = (start: string, n: number, step: (d: Date, i: number) => Date): TrendPoint[] =>
    Array.from({ length: n }, (_, i) => ({
      start: String(step(new Date(start), i).getTime() / 1000),
      end: "",
      total: Decimal.from(i),
      rows: new Map(),
    }));
  const hours = (d: Date, i: number) => new Date(d.getTime() + i * 3_600_000);
  const days = (d: Date, i: number) => new Date(d.getTime() + i * 86_400_000);
  const months = (d: Date, i: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + i));

  it("draws one bar per bucket with a short label of its own, the chart's title naming the time", () => {
    const may = trendCharts(series("2026-05-01T00:00:00Z", 31, days), "day");
    expect(may.map((c) => c.title)).toEqual(["Daily cost, May 2026"]);
    expect(may[0]?.labels).toEqual(Array.from({ length: 31 }, (_, i) => String(i + 1)));
    const year = trendCharts(series("2025-06-01T00:00:00Z", 12, months), "month");
    expect(year.map((c) => c.title)).toEqual(["Monthly cost, June 2025 to May 2026"]);
    expect(year[0]?.labels.join(" ")).toBe("Jun Jul Aug Sep Oct Nov Dec Jan Feb Mar Apr May");
    const month = trendCharts(series("2026-10-22T00:00:00Z", 30, days), "day");
    expect(month.map((c) => c.title)).toEqual(["Daily cost, 2026-10-22 to 2026-11-20"]);
  });

  it("splits a series whose labels would repeat, by day, month or year, and keeps the last charts", () => {
    const twoDays = trendCharts(series("2026-06-01T00:00:00Z", 48, hours), "hour");
    expect(twoDays.map((c) => c.title)).toEqual(["Hourly cost, 2026-06-01", "Hourly cost, 2026-06-02"]);
    expect(twoDays.map((c) => c.points.length)).toEqual([24, 24]);
    const quarter = trendCharts(series("2026-03-01T00:00:00Z", 92, days), "day");
    expect(quarter.map((c) => c.title)).toEqual([
      "Daily cost, March 2026",
      "Daily cost, April 2026",
      "Daily cost, May 2026",
    ]);
    const month = trendCharts(series("2026-02-01T00:00:00Z", 31, days), "day");
    expect(month.map((c) => c.labels.length)).toEqual([28, 3]);
    const years = trendCharts(series("2024-01-01T00:00:00Z", 30, months), "month");
    expect(years.map((c) => c.title)).toEqual(
      ["Monthly cost, 2024", "Monthly cost, 2025", "Monthly cost, January to June 2026"].map((t) =>
        t.replace(/, (\d{4})$/, ", January to December $1"),
      ),
    );
    const weeks = trendCharts(series("2026-05-01T00:00:00Z", 24 * 20, hours), "hour");
    expect(weeks).toHaveLength(MAX_CHARTS);
    expect(weeks.at(-1)?.title).toBe("Hourly cost, 2026-05-20");
    for (const chart of [...twoDays, ...quarter, ...years, ...weeks])
      expect(new Set(chart.labels).size).toBe(chart.labels.length);
  });
});

describe("CSV cells", () => {
  it("defuse spreadsheet formulas and quote separators", () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("@sum")).toBe("'@sum");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("-12.5")).toBe("-12.5");
    expect(csvCell("-1+2")).toBe("'-1+2");
  });
});

describe("decimalText", () => {
  it("is Decimal.from(n).toFixed() for plain, tiny, huge and long numbers", () => {
    const numbers = [
      0,
      -0,
      1,
      -1,
      0.5,
      -0.25,
      12.345678,
      0.000001,
      1e-7,
      1.5e-7,
      123.4567890123456,
      0.1 + 0.2,
    ];
    numbers.push(1e21, 1.25e22, 999999999999999.9, 5e-324, 4.5e11, 0.000123456789012345);
    for (let i = 0; i < 10_000; i++) numbers.push(Math.round(Math.random() * 1e12) / 10 ** (i % 13));
    for (const n of numbers) expect(decimalText(n), String(n)).toBe(Decimal.from(n).toFixed());
  });
});

describe("LineFile", () => {
  it("writes amounts digit by digit as decimalText writes them, between pieces of text and bytes", async () => {
    const numbers = [0, -0, 1, -1, 0.5, -0.25, 12.345678, 0.000001, -0.000001, 1e-7, 100, 999999999.999999];
    numbers.push(1e9, 120.5, 0.1 + 0.2, 1e21, 4.5e11, -17.00001);
    for (let i = 0; i < 20_000; i++)
      numbers.push(((i % 2 ? 1 : -1) * Math.round(Math.random() * 10 ** (i % 16))) / 10 ** (i % 8));
    const dir = await mkdtemp(join(tmpdir(), "line-file-"));
    const file = LineFile.open(join(dir, "amounts.csv"));
    for (const n of numbers) {
      file.text("é");
      file.decimal(n);
      file.bytes(Buffer.from("\n"));
    }
    await file.close();
    const written = (await readFile(join(dir, "amounts.csv"), "utf8")).split("\n");
    expect(written.slice(0, -1)).toEqual(numbers.map((n) => `é${decimalText(n)}`));
    await rm(dir, { recursive: true });
  });
});
