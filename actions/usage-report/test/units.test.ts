import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Decimal, decimalText, formatMoney } from "../src/decimal.js";
import { resolvePeriod, totalWindows } from "../src/period.js";
import { csvCell } from "../src/render/csv.js";
import { LineFile } from "../src/render/line-file.js";
import { axisLabels } from "../src/render/markdown.js";

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
    expect(quarter.label).toBe("2026-10-01 to 2026-12-31 (so far)");
  });
});

describe("the chart's x-axis", () => {
  it("shows at most 16 labels, one category per bar, every category distinct", () => {
    for (const n of [12, 16, 17, 31, 48, 100]) {
      const labels = Array.from({ length: n }, (_, i) => `day ${i + 1}`);
      const axis = axisLabels(labels);
      expect(axis).toHaveLength(n);
      expect(new Set(axis).size).toBe(n);
      const shown = axis.filter((l) => /[^\u200b\u200c]/.test(l));
      expect(shown.length).toBeLessThanOrEqual(16);
      expect(shown[0]).toBe("day 1");
      expect(axis.every((l, i) => l === labels[i] || /^[\u200b\u200c]+$/.test(l))).toBe(true);
    }
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
