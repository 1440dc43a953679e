import { mkdir, mkdtemp, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PartitionedFocusParquet } from "../src/render/focus/partitioned-sink.js";
import {
  COMPONENTS,
  type FocusContext,
  focusPeriod,
  paasCharge,
  projectOwner,
} from "../src/render/focus/parts.js";

// The partitioned FOCUS dataset's files, as its writer leaves them: a folder per billing period,
// whole or not at all. (What the parts hold, read by DuckDB and hyparquet, is the usage-report
// action's test, through its bundle.)

const context: FocusContext = {
  currency: "USD",
  accountId: "billing-customer",
  accountName: "Acme",
  teamScoped: false,
  names: new Map(),
  projectIds: new Map(),
  invoices: new Map(),
};
const day = (iso: string) =>
  focusPeriod({ window: { start: iso, end: new Date(Date.parse(iso) + 86_400_000).toISOString() } }, context);
const charge = paasCharge("service", COMPONENTS[0], false);
const owner = projectOwner("team", "project", context);
const MAY = Date.UTC(2026, 4, 1);
const JUNE = Date.UTC(2026, 5, 1);
const JULY = Date.UTC(2026, 6, 1);

const noWarning = (message: string) => {
  throw new Error(`unexpected warning: ${message}`);
};

/** Every file under `root`, by its path there. */
async function files(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .sort();
}

describe("the partitioned FOCUS dataset's writer", () => {
  it("writes a folder per billing period, a part per run of its rows, and an empty part for a period without rows", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-partitions-"));
    const root = join(dir, "focus");
    const sink = await PartitionedFocusParquet.open(root, [MAY, JUNE, JULY], noWarning);
    sink.row(day("2026-05-30T00:00:00Z"), charge, owner, "r1", 1.5, 2);
    sink.row(day("2026-06-01T00:00:00Z"), charge, owner, "r1", 1.5, 2);
    await sink.drained();
    // A row of May again, after June's: a part of its own, never a rewrite of the first.
    sink.row(day("2026-05-31T00:00:00Z"), charge, owner, "r2", 0.5, 1);
    await sink.close();
    expect(await files(root)).toEqual([
      "billing_period=2026-05/part-00000.parquet",
      "billing_period=2026-05/part-00001.parquet",
      "billing_period=2026-06/part-00000.parquet",
      "billing_period=2026-07/part-00000.parquet",
    ]);
    for (const file of await files(root)) {
      const bytes = await readFile(join(root, file));
      expect(bytes.subarray(0, 4).toString()).toBe("PAR1");
      expect(bytes.subarray(-4).toString()).toBe("PAR1");
    }
    expect(await readdir(dir)).toEqual(["focus"]);
  });

  it("replaces a period's folder whole, stale parts and all, and leaves periods outside the run as they are", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-partitions-"));
    const root = join(dir, "focus");
    for (const file of [
      "billing_period=2026-05/part-00000.parquet",
      "billing_period=2026-05/part-00003.parquet",
      "billing_period=2025-01/part-00000.parquet",
    ]) {
      await mkdir(join(root, file, ".."), { recursive: true });
      await writeFile(join(root, file), `old ${file}`);
    }
    const sink = await PartitionedFocusParquet.open(root, [MAY], noWarning);
    sink.row(day("2026-05-02T00:00:00Z"), charge, owner, "r1", 1, 1);
    await sink.close();
    expect(await files(root)).toEqual([
      "billing_period=2025-01/part-00000.parquet",
      "billing_period=2026-05/part-00000.parquet",
    ]);
    expect(await readFile(join(root, "billing_period=2025-01/part-00000.parquet"), "utf8")).toBe(
      "old billing_period=2025-01/part-00000.parquet",
    );
    expect(
      (await readFile(join(root, "billing_period=2026-05/part-00000.parquet"))).subarray(0, 4).toString(),
    ).toBe("PAR1");
    expect(await readdir(dir)).toEqual(["focus"]);
  });

  it("cut short after rows were written, leaves the previous files as they were and nothing of its own", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-partitions-"));
    const root = join(dir, "focus");
    await mkdir(join(root, "billing_period=2026-05"), { recursive: true });
    await writeFile(join(root, "billing_period=2026-05/part-00000.parquet"), "the previous run's");
    const sink = await PartitionedFocusParquet.open(root, [MAY, JUNE], noWarning);
    for (let i = 0; i < 1000; i++) sink.row(day("2026-05-03T00:00:00Z"), charge, owner, `r${i}`, 1, 1);
    sink.row(day("2026-06-03T00:00:00Z"), charge, owner, "r1", 1, 1);
    await sink.drained();
    await sink.discard();
    expect(await files(root)).toEqual(["billing_period=2026-05/part-00000.parquet"]);
    expect(await readFile(join(root, "billing_period=2026-05/part-00000.parquet"), "utf8")).toBe(
      "the previous run's",
    );
    expect(await readdir(dir)).toEqual(["focus"]);
  });

  it("leaves out rows of a period it was not asked for, with one warning naming how many and which; that period's folder stays", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-partitions-"));
    const root = join(dir, "focus");
    await mkdir(join(root, "billing_period=2026-05"), { recursive: true });
    await writeFile(join(root, "billing_period=2026-05/part-00000.parquet"), "May, complete");
    const warnings: string[] = [];
    const sink = await PartitionedFocusParquet.open(root, [JUNE], (m) => warnings.push(m));
    // The platform's bucket of the day before the window, then the window's rows.
    sink.row(day("2026-05-31T00:00:00Z"), charge, owner, "r1", 1, 1);
    sink.row(day("2026-05-31T00:00:00Z"), charge, owner, "r2", 1, 1);
    sink.row(day("2026-06-01T00:00:00Z"), charge, owner, "r1", 1, 1);
    await sink.close();
    expect(await files(root)).toEqual([
      "billing_period=2026-05/part-00000.parquet",
      "billing_period=2026-06/part-00000.parquet",
    ]);
    expect(await readFile(join(root, "billing_period=2026-05/part-00000.parquet"), "utf8")).toBe(
      "May, complete",
    );
    expect(warnings).toEqual([
      expect.stringMatching(/sent 2 FOCUS rows of billing period 2026-05.*2026-06.*left out/),
    ]);
  });

  it("writes into a dataset that is a link to a folder on another file system, staging beside the real folder", async () => {
    // /dev/shm is a file system of its own here (tmpfs); a rename across it fails with EXDEV.
    const other = await mkdtemp(join("/dev/shm", "cwp-volume-"));
    const dir = await mkdtemp(join(tmpdir(), "cwp-partitions-"));
    expect((await stat(other)).dev).not.toBe((await stat(dir)).dev);
    await mkdir(join(other, "focus"));
    const root = join(dir, "focus");
    await symlink(join(other, "focus"), root);
    const sink = await PartitionedFocusParquet.open(root, [MAY], noWarning);
    sink.row(day("2026-05-02T00:00:00Z"), charge, owner, "r1", 1, 1);
    await sink.close();
    expect(await files(join(other, "focus"))).toEqual(["billing_period=2026-05/part-00000.parquet"]);
    expect((await readdir(other)).sort()).toEqual(["focus"]);
    expect(await readdir(dir)).toEqual(["focus"]);
  });
});
