import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestPlatform, type TestPlatform } from "@cwp/action-testing";
import { createClient } from "@cwp/client";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PeriodName, writeCostReport } from "../src/index.js";

// The periods the report reads where the product itself decides "today", on the days a calendar
// gets wrong: the 1st after a 31-day month, the last day of February in a leap year and not, the
// last minute of a year, and a machine whose time zone is far from UTC. Each case fixes its own
// instant: the emulator's clock starts there and the report is read against it (`now`). What a
// person reads is checked where they read it: the summary's title (report.md), report.json, and
// the FOCUS file's charge and billing periods, read back by DuckDB.

interface Expected {
  label: string;
  previous?: string;
  /** The window in UTC, [start, end). */
  window: [string, string];
  /** The billing periods (UTC months) the FOCUS rows fall in. */
  months: string[];
}

const at = (iso: string) => Date.parse(iso);
/** The twelve months of a year, as YYYY-MM. */
const monthsOfYear = (year: number) =>
  Array.from({ length: 12 }, (_, m) => `${year}-${String(m + 1).padStart(2, "0")}`);

let duck: DuckDBConnection;
beforeAll(async () => {
  duck = await (await DuckDBInstance.create(":memory:")).connect();
});
afterAll(() => duck?.closeSync());

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await duck.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}

/** The report of `period` read at `now` on an emulator whose clock stands at `now`. */
async function reportAt(platform: TestPlatform, now: number, period: PeriodName) {
  const dir = await mkdtemp(join(tmpdir(), "cwp-calendar-"));
  try {
    const client = createClient({ baseUrl: platform.url, token: platform.tokens.org });
    await writeCostReport(client, { period, now, dir, formats: ["markdown", "json", "focus"] });
    const markdown = await readFile(join(dir, "report.md"), "utf8");
    const json = JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as {
      period: { label: string; start: string; end: string };
    };
    const csv = `'${join(dir, "focus.csv").replace(/'/g, "''")}'`;
    const [focus] = await rows(
      `SELECT strftime(min(ChargePeriodStart::TIMESTAMPTZ) AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS first, strftime(max(ChargePeriodEnd::TIMESTAMPTZ) AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS last, list(DISTINCT strftime(BillingPeriodStart::TIMESTAMPTZ AT TIME ZONE 'UTC', '%Y-%m')) AS months FROM read_csv(${csv}, header = true, all_varchar = true)`,
    );
    return {
      markdown,
      json,
      focus: { ...focus, months: [...((focus?.months as string[] | undefined) ?? [])].sort() },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function check(report: Awaited<ReturnType<typeof reportAt>>, expected: Expected) {
  const title = report.markdown.split("\n").find((line) => line.startsWith("## "));
  expect(title).toBe(`## Cloud Workload Platform costs: ${expected.label}`);
  if (expected.previous)
    expect(report.markdown).toContain(`against the previous period, ${expected.previous} (`);
  expect(report.json.period).toEqual({
    label: expected.label,
    start: expected.window[0],
    end: expected.window[1],
  });
  // Every charge of the file lies in the window, from its first hour to its last.
  expect(report.focus).toEqual({
    first: expected.window[0],
    last: expected.window[1],
    months: expected.months,
  });
}

const CASES: Array<{
  name: string;
  now: string;
  zone?: string;
  periods: Partial<Record<PeriodName, Expected>>;
}> = [
  {
    name: "the 1st after a 31-day month, 20 minutes in",
    now: "2027-01-01T00:20:00Z",
    periods: {
      "last-month": {
        label: "December 2026 (last month)",
        previous: "November 2026",
        window: ["2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z"],
        months: ["2026-12"],
      },
      "last-30-days": {
        label: "2026-12-02 to 2026-12-31 (last 30 days)",
        previous: "2026-11-02 to 2026-12-01",
        window: ["2026-12-02T00:00:00Z", "2027-01-01T00:00:00Z"],
        months: ["2026-12"],
      },
      "last-12-months": {
        label: "January to December 2026 (last 12 months)",
        previous: "January to December 2025",
        window: ["2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"],
        months: monthsOfYear(2026),
      },
    },
  },
  {
    name: "the last day of February in a leap year",
    now: "2028-02-29T12:30:00Z",
    periods: {
      "month-to-date": {
        label: "2028-02-01 to 2028-02-29 12:00 UTC (month to date)",
        previous: "2028-01-03 12:00 UTC to 2028-02-01",
        window: ["2028-02-01T00:00:00Z", "2028-02-29T12:00:00Z"],
        months: ["2028-02"],
      },
      "last-30-days": {
        label: "2028-01-30 to 2028-02-28 (last 30 days)",
        previous: "2027-12-31 to 2028-01-29",
        window: ["2028-01-30T00:00:00Z", "2028-02-29T00:00:00Z"],
        months: ["2028-01", "2028-02"],
      },
      "last-month": {
        label: "January 2028 (last month)",
        previous: "December 2027",
        window: ["2028-01-01T00:00:00Z", "2028-02-01T00:00:00Z"],
        months: ["2028-01"],
      },
    },
  },
  {
    name: "the last day of February in a year that is not a leap year",
    now: "2027-02-28T12:30:00Z",
    periods: {
      "month-to-date": {
        label: "2027-02-01 to 2027-02-28 12:00 UTC (month to date)",
        previous: "2027-01-04 12:00 UTC to 2027-02-01",
        window: ["2027-02-01T00:00:00Z", "2027-02-28T12:00:00Z"],
        months: ["2027-02"],
      },
      "last-30-days": {
        label: "2027-01-29 to 2027-02-27 (last 30 days)",
        previous: "2026-12-30 to 2027-01-28",
        window: ["2027-01-29T00:00:00Z", "2027-02-28T00:00:00Z"],
        months: ["2027-01", "2027-02"],
      },
    },
  },
  {
    name: "31 December, a minute before midnight UTC",
    now: "2026-12-31T23:59:00Z",
    periods: {
      "month-to-date": {
        label: "2026-12-01 to 2026-12-31 23:00 UTC (month to date)",
        previous: "2026-10-31 01:00 UTC to 2026-12-01",
        window: ["2026-12-01T00:00:00Z", "2026-12-31T23:00:00Z"],
        months: ["2026-12"],
      },
      "year-to-date": {
        label: "2026-01-01 to 2026-12-31 23:00 UTC (year to date)",
        window: ["2026-01-01T00:00:00Z", "2026-12-31T23:00:00Z"],
        months: monthsOfYear(2026),
      },
      "last-7-days": {
        label: "2026-12-24 to 2026-12-30 (last 7 days)",
        previous: "2026-12-17 to 2026-12-23",
        window: ["2026-12-24T00:00:00Z", "2026-12-31T00:00:00Z"],
        months: ["2026-12"],
      },
    },
  },
  {
    // Already 1 January on the machine (UTC+14), still 31 December in UTC: the report's periods are UTC's.
    name: "a machine 14 hours ahead of UTC, already in the new year",
    now: "2026-12-31T12:00:00Z",
    zone: "Pacific/Kiritimati",
    periods: {
      "month-to-date": {
        label: "2026-12-01 to 2026-12-31 12:00 UTC (month to date)",
        window: ["2026-12-01T00:00:00Z", "2026-12-31T12:00:00Z"],
        months: ["2026-12"],
      },
      "last-month": {
        label: "November 2026 (last month)",
        previous: "October 2026",
        window: ["2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z"],
        months: ["2026-11"],
      },
    },
  },
  {
    // Still 31 December on the machine (UTC-11), already 1 January in UTC.
    name: "a machine 11 hours behind UTC, still in the old year",
    now: "2027-01-01T05:30:00Z",
    zone: "Pacific/Pago_Pago",
    periods: {
      "last-month": {
        label: "December 2026 (last month)",
        previous: "November 2026",
        window: ["2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z"],
        months: ["2026-12"],
      },
      "month-to-date": {
        label: "2027-01-01 to 2027-01-01 05:00 UTC (month to date)",
        window: ["2027-01-01T00:00:00Z", "2027-01-01T05:00:00Z"],
        months: ["2027-01"],
      },
    },
  },
];

describe("the report's period on the calendar's edges", { timeout: 120_000 }, () => {
  for (const c of CASES)
    it(`${c.name} (${c.now}${c.zone ? `, TZ=${c.zone}` : ""}): ${Object.keys(c.periods).join(", ")}`, async () => {
      const zone = process.env.TZ;
      // Node reads TZ again when it is set: Date's local-time methods now answer in that zone.
      if (c.zone) process.env.TZ = c.zone;
      const platform = await startTestPlatform({ speed: 0, startAt: at(c.now) });
      try {
        if (c.zone) expect(new Date(at(c.now)).getDate()).not.toBe(new Date(at(c.now)).getUTCDate());
        for (const [period, expected] of Object.entries(c.periods))
          check(await reportAt(platform, at(c.now), period as PeriodName), expected);
      } finally {
        await platform.close();
        if (zone === undefined) delete process.env.TZ;
        else process.env.TZ = zone;
      }
    });
});

describe("a period to date in its first hour, before any whole billing hour", () => {
  it("says the month has no whole hour yet in the summary and the JSON, sends nothing, and writes no FOCUS rows nor replaces a dataset", async () => {
    const now = at("2027-01-01T00:20:00Z");
    // A platform that answers nothing: a report that asked it would fail.
    const client = createClient({ baseUrl: "http://127.0.0.1:2", token: "unused" });
    for (const period of ["month-to-date", "year-to-date"] as const) {
      const dir = await mkdtemp(join(tmpdir(), "cwp-first-hour-"));
      // Last month's partitioned dataset, written by an earlier run: left as it is.
      await mkdir(join(dir, "focus/billing_period=2026-12"), { recursive: true });
      await writeFile(join(dir, "focus/billing_period=2026-12/part-0.parquet"), "earlier run");
      const { report, files } = await writeCostReport(client, {
        period,
        now,
        dir,
        formats: ["markdown", "json", "csv", "focus", "focus-parquet"],
        focusLayout: "partitioned",
      });
      const words = period === "month-to-date" ? "month to date" : "year to date";
      const why = `The ${words} has no whole hour yet: billing hours are whole, and the first of 2027-01-01 ends at 2027-01-01 01:00 UTC`;
      expect(report.requests).toBe(0);
      expect(Object.keys(files).sort()).toEqual(["json", "markdown"]);
      const markdown = await readFile(join(dir, "report.md"), "utf8");
      expect(markdown).toContain(`## Cloud Workload Platform costs: 2027-01-01 (${words})`);
      expect(markdown).toContain(`${why}. There is nothing to report yet`);
      expect(markdown).not.toMatch(/Total|01:00 UTC \(month to date\)/);
      const json = JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as Record<string, unknown>;
      expect(json.notYet).toBe(why);
      expect(json.total).toBeNull();
      expect(json.period).toEqual({
        label: `2027-01-01 (${words})`,
        start: "2027-01-01T00:00:00Z",
        end: "2027-01-01T00:00:00Z",
      });
      expect((await readdir(dir)).sort()).toEqual(["focus", "report.json", "report.md"]);
      expect(await readFile(join(dir, "focus/billing_period=2026-12/part-0.parquet"), "utf8")).toBe(
        "earlier run",
      );
      await rm(dir, { recursive: true, force: true });
    }
  });
});
