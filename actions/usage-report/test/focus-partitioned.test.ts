import { copyFile, mkdir, mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  broken,
  count,
  duck,
  platform,
  quoted,
  rows,
  sameInHyparquet,
  useFocusChecks,
} from "./focus-checks.js";
import { partitionedRuns } from "./focus-partitioned-runs.js";

useFocusChecks();

// focus/ partitioned by billing period (focus-layout: partitioned), as a warehouse loads it
// (focus-checks.ts says how its files are checked; a period never replaced with less:
// focus-partitioned-less.test.ts).

describe("usage-report: the FOCUS dataset partitioned by billing period (focus-layout: partitioned)", {
  timeout: 300_000,
}, () => {
  const { range, write, dataset, partsOf } = partitionedRuns();

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
});
