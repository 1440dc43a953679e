import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runBundle } from "@cwp/action-testing";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  actionDir,
  broken,
  count,
  duck,
  platform,
  quoted,
  rows,
  sameInHyparquet,
  twoWholeMonths,
  useFocusChecks,
} from "./focus-checks.js";
import { projectListGoingRound } from "./project-list-going-round.js";

useFocusChecks();

// focus/ partitioned by billing period (focus-layout: partitioned), as a warehouse loads it
// (focus-checks.ts says how its files are checked).

describe("usage-report: the FOCUS dataset partitioned by billing period (focus-layout: partitioned)", {
  timeout: 300_000,
}, () => {
  const range = twoWholeMonths();
  const inputs = {
    start: range.start,
    end: range.end,
    granularity: "month",
    compare: "false",
    "billing-account-name": "Acme Corp",
  };
  const write = async (
    dir: string,
    layout: "file" | "partitioned",
    extra: Record<string, string> = {},
    token = platform.tokens.org,
  ) =>
    runBundle(actionDir, {
      inputs: {
        ...platform.connection(token),
        "output-dir": dir,
        formats: "focus-parquet",
        "focus-layout": layout,
        ...inputs,
        ...extra,
      },
    });
  const dataset = (root: string) =>
    `read_parquet(${quoted(`${root}/**/*.parquet`)}, hive_partitioning = true)`;
  const partsOf = async (root: string) =>
    (await readdir(root, { recursive: true })).filter((f) => f.endsWith(".parquet")).sort();

  it("holds the single file's rows, a folder per billing period; FOCUS's rules hold; DuckDB prunes by billing_period and hyparquet reads every part", async () => {
    await platform.reset();
    const dir = await mkdtemp(join(tmpdir(), "cwp-focus-partitioned-"));
    const single = await write(join(dir, "single"), "file");
    expect(single.code, single.stdout).toBe(0);
    const written = await write(join(dir, "dataset"), "partitioned");
    expect(written.code, written.stdout).toBe(0);
    const root = join(dir, "dataset", "focus");
    expect(await partsOf(root)).toEqual(range.months.map((m) => `billing_period=${m}/part-00000.parquet`));
    // Nothing but the dataset is left in the report's folder: no staging folder.
    expect((await readdir(join(dir, "dataset"))).sort()).toEqual(["focus"]);

    await duck.run(`CREATE OR REPLACE VIEW pq AS SELECT * EXCLUDE (billing_period) FROM ${dataset(root)}`);
    await duck.run(
      `CREATE OR REPLACE VIEW one AS SELECT * FROM read_parquet(${quoted(join(dir, "single", "focus.parquet"))})`,
    );
    const total = await count("SELECT count(*) AS n FROM one");
    expect(total).toBeGreaterThan(0);
    expect(await count("SELECT count(*) AS n FROM pq")).toBe(total);
    expect(await count("SELECT count(*) AS n FROM (SELECT * FROM pq EXCEPT ALL SELECT * FROM one)")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM (SELECT * FROM one EXCEPT ALL SELECT * FROM pq)")).toBe(0);
    expect(await broken("pq")).toEqual([]);
    // Each row sits in its billing period's folder.
    expect(
      await count(
        `SELECT count(*) AS n FROM ${dataset(root)} WHERE billing_period <> strftime(BillingPeriodStart AT TIME ZONE 'UTC', '%Y-%m')`,
      ),
    ).toBe(0);
    // A filter on billing_period reads that period's files only.
    const [plan] = await rows(
      `EXPLAIN ANALYZE SELECT count(*) FROM ${dataset(root)} WHERE billing_period = '${range.months[1]}'`,
    );
    expect(String(plan?.explain_value)).toMatch(/Total Files Read: 1\b/);
    // A second reader: every part, row for row as DuckDB reads it.
    let read = 0;
    for (const part of await partsOf(root)) {
      await duck.run(
        `CREATE OR REPLACE VIEW pq AS SELECT * FROM read_parquet(${quoted(join(root, part))}, hive_partitioning = false)`,
      );
      const header = (await rows("SELECT column_name FROM (DESCRIBE SELECT * FROM pq)")).map((r) =>
        String(r.column_name),
      );
      await sameInHyparquet(join(root, part), header);
      read += await count("SELECT count(*) AS n FROM pq");
    }
    expect(read).toBe(total);
    // The README's DuckDB recipe, as written, from the report's folder.
    const readme = await readFile(
      new URL("../../../packages/cost-report/README.md", import.meta.url),
      "utf8",
    );
    const recipe = /Reading the whole dataset at once[\s\S]*?```sql\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(recipe).toContain("read_parquet('focus/**/*.parquet', hive_partitioning = true)");
    const spend = await rows(
      recipe.replace("'focus/**/*.parquet'", quoted(`${root}/**/*.parquet`)).replace(/;\s*$/, ""),
    );
    expect([...new Set(spend.map((r) => r.billing_period))]).toEqual(range.months);
    const [sum] = await rows("SELECT round(sum(BilledCost), 2) AS spend FROM one");
    expect(spend.reduce((s, r) => s + Number(r.spend), 0)).toBeCloseTo(Number(sum?.spend), 1);
  });

  it("a team billed through its organisation, by day: the same rows as its single file, FOCUS's rules kept", async () => {
    await platform.reset();
    const dir = await mkdtemp(join(tmpdir(), "cwp-focus-team-"));
    const day = { granularity: "day", "billing-account-name": "" };
    const team = platform.tokens.teamViaOrg;
    expect((await write(join(dir, "single"), "file", day, team)).code).toBe(0);
    expect((await write(join(dir, "dataset"), "partitioned", day, team)).code).toBe(0);
    const root = join(dir, "dataset", "focus");
    expect(await partsOf(root)).toEqual(range.months.map((m) => `billing_period=${m}/part-00000.parquet`));
    await duck.run(`CREATE OR REPLACE VIEW pq AS SELECT * EXCLUDE (billing_period) FROM ${dataset(root)}`);
    await duck.run(
      `CREATE OR REPLACE VIEW one AS SELECT * FROM read_parquet(${quoted(join(dir, "single", "focus.parquet"))})`,
    );
    expect(await count("SELECT count(*) AS n FROM pq")).toBe(await count("SELECT count(*) AS n FROM one"));
    expect(await count("SELECT count(*) AS n FROM (SELECT * FROM pq EXCEPT ALL SELECT * FROM one)")).toBe(0);
    expect(await broken("pq")).toEqual([]);
    expect(await rows("SELECT DISTINCT BillingAccountType FROM pq")).toEqual([
      { BillingAccountType: "Team billed through an organisation" },
    ]);
  });

  it("a rerun replaces each period's folder whole (no stale part left); a run cut short leaves the previous files; a period that is not whole months is refused", async () => {
    await platform.reset();
    const dir = await mkdtemp(join(tmpdir(), "cwp-focus-rerun-"));
    expect((await write(dir, "partitioned")).code).toBe(0);
    const root = join(dir, "focus");
    const [first = ""] = await partsOf(root);
    // A part an earlier run (or another writer) left in a period's folder.
    await copyFile(join(root, first), join(root, first.replace("part-00000", "part-00007")));
    // An older month this run does not cover stays as it is.
    const older = join(root, "billing_period=2001-01");
    await mkdir(older);
    await copyFile(join(root, first), join(older, "part-00000.parquet"));
    expect((await write(dir, "partitioned")).code).toBe(0);
    expect(await partsOf(root)).toEqual([
      "billing_period=2001-01/part-00000.parquet",
      ...range.months.map((m) => `billing_period=${m}/part-00000.parquet`),
    ]);
    const perPeriod = async () =>
      rows(
        `SELECT billing_period, count(*) AS n FROM ${dataset(root)} WHERE billing_period <> '2001-01' GROUP BY ALL ORDER BY 1`,
      );
    const before = await perPeriod();
    const [single] = await rows(
      `SELECT count(*) AS n FROM ${dataset(root)} WHERE billing_period = '${range.months[0]}'`,
    );
    expect(Number(before[0]?.n)).toBe(Number(single?.n));
    const bytes = await readFile(join(root, `billing_period=${range.months[1]}`, "part-00000.parquet"));

    // Cut short: the usage list fails for good (a run cut after rows were written is the cost
    // report's own test: packages/cost-report/test/partitioned-dataset.test.ts).
    await platform.control("POST", "faults", [
      { method: "GET", path: "/v1/billing/usage*", status: 500, times: 50 },
    ]);
    const failed = await write(dir, "partitioned");
    expect(failed.code).not.toBe(0);
    expect(await readFile(join(root, `billing_period=${range.months[1]}`, "part-00000.parquet"))).toEqual(
      bytes,
    );
    expect(await perPeriod()).toEqual(before);
    expect((await readdir(dir)).filter((f) => f.startsWith("."))).toEqual([]);
    await platform.reset();

    const refused = await write(dir, "partitioned", { start: range.start, end: `${range.months[1]}-14` });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/focus-layout.*partitioned writes whole billing periods/);
  });

  // What a stand-in platform may send an export, through the emulator's faults: each time the
  // dataset is read back, and the period before the run's (a complete month of an earlier run)
  // is as it was.
  describe("never replaces a period with less", () => {
    const before = (() => {
      const first = new Date(`${range.start}T00:00:00Z`);
      const day = new Date(first.getTime() - 86_400_000);
      return { month: day.toISOString().slice(0, 7), day: day.toISOString(), first: first.toISOString() };
    })();
    /** A dataset with the month before the run's, complete, as an earlier run left it. */
    const earlier = async (root: string) => {
      const dir = await mkdtemp(join(tmpdir(), "cwp-focus-earlier-"));
      expect((await write(dir, "partitioned")).code).toBe(0);
      const folder = join(root, `billing_period=${before.month}`);
      await mkdir(folder, { recursive: true });
      await copyFile(
        join(dir, "focus", `billing_period=${range.months[0]}`, "part-00000.parquet"),
        join(folder, "part-00000.parquet"),
      );
      const bytes = await readFile(join(folder, "part-00000.parquet"));
      return {
        intact: async () => {
          expect(await readdir(folder)).toEqual(["part-00000.parquet"]);
          expect(await readFile(join(folder, "part-00000.parquet"))).toEqual(bytes);
        },
      };
    };

    it("leaves out a bucket dated before the window, with a warning naming how many rows and which period; the dataset may be a link to another file system", async () => {
      await platform.reset();
      const dir = await mkdtemp(join(tmpdir(), "cwp-focus-outside-"));
      // The dataset on a mounted volume: /dev/shm is a file system of its own (a rename across fails).
      const volume = await mkdtemp(join("/dev/shm", "cwp-focus-volume-"));
      // /dev/shm is memory and outlives the test: the volume goes with it, pass or fail.
      onTestFinished(() => rm(volume, { recursive: true, force: true }));
      expect((await stat(volume)).dev).not.toBe((await stat(dir)).dev);
      await symlink(volume, join(dir, "focus"));
      const { intact } = await earlier(volume);
      // The trend's first bucket answered as the day before the window.
      await platform.control("POST", "faults", {
        method: "GET",
        path: "/v1/billing/usage*",
        rewrite: { set: { "data.usage.0.window": { start: before.day, end: before.first } } },
        times: 100,
      });
      const day = { granularity: "day", "billing-account-name": "" };
      const result = await write(dir, "partitioned", day, platform.tokens.teamViaOrg);
      expect(result.code, result.stdout).toBe(0);
      expect(result.stdout).toMatch(
        new RegExp(
          `::warning::The platform sent \\d+ FOCUS rows of billing period ${before.month}, which this run was not asked for \\(${range.months.join(", ")}\\): left out`,
        ),
      );
      await intact();
      expect((await partsOf(volume)).filter((p) => !p.includes(before.month))).toEqual(
        range.months.map((m) => `billing_period=${m}/part-00000.parquet`),
      );
      expect(await readdir(dir)).toEqual(["focus"]);
      expect((await readdir("/dev/shm")).filter((f) => f.includes("staging"))).toEqual([]);
    });

    it("writes nothing and fails, naming the list, when a list the export reads goes round", async () => {
      await platform.reset();
      const dir = await mkdtemp(join(tmpdir(), "cwp-focus-loop-"));
      const { intact } = await earlier(join(dir, "focus"));
      await projectListGoingRound(platform);
      const result = await write(dir, "partitioned");
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /::error::GET \/v1\/projects .*could not be read whole, so nothing was written/,
      );
      await intact();
      expect(await partsOf(join(dir, "focus"))).toEqual([
        `billing_period=${before.month}/part-00000.parquet`,
      ]);
      expect(await readdir(dir)).toEqual(["focus"]);
    });

    it("stops, naming the entry, on a usage entry with neither window nor timestamp", async () => {
      await platform.reset();
      const dir = await mkdtemp(join(tmpdir(), "cwp-focus-timeless-"));
      const { intact } = await earlier(join(dir, "focus"));
      await platform.control("POST", "faults", {
        method: "GET",
        path: "/v1/billing/usage*",
        rewrite: { omit: ["data.usage.1.window", "data.usage.1.timestamp"] },
        times: 100,
      });
      const result = await write(dir, "partitioned");
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /::error::The platform's usage entry 2 has neither a window nor a timestamp/,
      );
      expect(result.stdout).not.toMatch(/Invalid time value/);
      await intact();
      expect(await partsOf(join(dir, "focus"))).toEqual([
        `billing_period=${before.month}/part-00000.parquet`,
      ]);
    });
  });
});
