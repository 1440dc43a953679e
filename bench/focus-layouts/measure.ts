// The FOCUS dataset in its three forms, for one report at scale: focus.csv, focus.parquet, and
// focus/ partitioned by billing period (focus-layout: partitioned). Each is the usage-report
// step's own run, as the runner runs it, against the emulator at that scale: its wall, its peak
// resident memory and what it wrote. The partitioned dataset keeps the single Parquet file's
// targets against the CSV: at most an eighth of its bytes, no slower than 1.1× its wall, a peak of
// at most 512 MB.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type ArrowPruning, arrowPruning, runBundle } from "@cwp/action-testing";
import { controlPlane } from "@cwp/emulator";

const root = fileURLToPath(new URL("../..", import.meta.url));

export interface Layout {
  name: string;
  formats: string;
  focusLayout?: "partitioned";
  /** What it writes, in the output folder. */
  written: string;
}
export const LAYOUTS: readonly Layout[] = [
  { name: "focus.csv", formats: "focus", written: "focus.csv" },
  { name: "focus.parquet", formats: "focus-parquet", written: "focus.parquet" },
  { name: "focus/ (partitioned)", formats: "focus-parquet", focusLayout: "partitioned", written: "focus" },
];

export interface Measured {
  layout: string;
  bytes: number;
  files: number;
  wallSeconds: number;
  peakMb: number;
  /** Parquet only: what Arrow reads for a query on one day, and on one ServiceName. */
  pruned?: { oneDay: Pruned; oneService: Pruned };
}

/** What a filtered query reads of the Parquet data, beside all of it: row groups and their bytes. */
export interface Pruned {
  filter: string;
  rowGroups: number;
  keptRowGroups: number;
  bytes: number;
  keptBytes: number;
  /** keptBytes / bytes. */
  share: number;
}

/** The last day of the last whole month: inside a year's period, at a month's edge. */
function lastWholeDay(now = Date.now()): { from: string; to: string } {
  const today = new Date(now);
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1);
  return { from: new Date(end - 86_400_000).toISOString(), to: new Date(end).toISOString() };
}

/** What Arrow (which honours the footer's column order) reads for the two filters. */
function prunedBy(path: string): { oneDay: Pruned; oneService: Pruned } {
  const pruned = (filter: string, p: ArrowPruning): Pruned => ({
    filter,
    rowGroups: p.rowGroups,
    keptRowGroups: p.kept,
    bytes: p.bytes,
    keptBytes: p.keptBytes,
    share: Number((p.keptBytes / p.bytes).toFixed(4)),
  });
  const day = lastWholeDay();
  return {
    oneDay: pruned(
      `ChargePeriodStart in [${day.from}, ${day.to})`,
      arrowPruning(path, { column: "ChargePeriodStart", ...day }),
    ),
    oneService: pruned(
      "ServiceName = the first row group's least",
      arrowPruning(path, { column: "ServiceName" }),
    ),
  };
}

/** Peak resident memory of a process: Linux keeps its high-water mark in /proc/<pid>/status. */
async function peakKb(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
  return hwm ? Number(hwm[1]) : undefined;
}

/** Every file's size under `path` (a file or a folder), and how many there are. */
async function sizeOf(path: string): Promise<{ bytes: number; files: number }> {
  const info = await stat(path);
  if (info.isFile()) return { bytes: info.size, files: 1 };
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(path, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      bytes += (await stat(join(entry.parentPath, entry.name))).size;
      files += 1;
    }
  return { bytes, files };
}

export async function measureLayouts(cell: {
  scale: string;
  period: string;
  granularity: string;
}): Promise<Measured[]> {
  // In a process of its own, so the step's memory is the step's alone.
  const child = spawn(process.execPath, [
    join(root, "packages/emulator/bin/cwp-emulator.js"),
    ...["--port", "0", "--speed", "0", "--rate-limit", "1000000", "--scale", cell.scale],
  ]);
  try {
    const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
    const url = /listening on (\S+)/.exec(String(line))?.[1] ?? "";
    const fixtures = (await controlPlane(url)("GET", "fixtures")) as { tokens: { org: string } };
    const measured: Measured[] = [];
    for (const layout of LAYOUTS) {
      const out = join(tmpdir(), `cwp-bench-focus-layouts-${process.pid}`);
      await rm(out, { recursive: true, force: true });
      let peak = 0;
      const started = performance.now();
      const result = await runBundle(join(root, "actions/usage-report"), {
        inputs: {
          "api-token": fixtures.tokens.org,
          "api-url": url,
          period: cell.period,
          granularity: cell.granularity,
          formats: layout.formats,
          ...(layout.focusLayout ? { "focus-layout": layout.focusLayout } : {}),
          "billing-account-name": "Bench",
          "output-dir": out,
          timeout: "60m",
        },
        onSpawn: (pid) => {
          // Sampled every 20 ms until the process is gone.
          const timer = setInterval(async () => {
            const kb = await peakKb(pid);
            if (kb === undefined) clearInterval(timer);
            else peak = Math.max(peak, kb);
          }, 20);
        },
        killAfterMs: 60 * 60_000,
      });
      const wallSeconds = (performance.now() - started) / 1000;
      if (result.code !== 0)
        throw new Error(`${layout.name}: the step failed\n${result.stdout.slice(-2000)}`);
      const { bytes, files } = await sizeOf(join(out, layout.written));
      measured.push({
        layout: layout.name,
        bytes,
        files,
        wallSeconds: Number(wallSeconds.toFixed(2)),
        peakMb: Math.round(peak / 1024),
        ...(layout.formats === "focus-parquet" ? { pruned: prunedBy(join(out, layout.written)) } : {}),
      });
      await rm(out, { recursive: true, force: true });
    }
    return measured;
  } finally {
    child.kill();
  }
}

/** The targets each Parquet form keeps against focus.csv. */
export function targets(measured: readonly Measured[]) {
  const csv = measured.find((m) => m.layout === "focus.csv");
  if (!csv) throw new Error("focus.csv is the measure of the others");
  return measured
    .filter((m) => m !== csv)
    .map((m) => ({
      layout: m.layout,
      atMostAnEighthOfTheCsv: m.bytes * 8 <= csv.bytes,
      wallAtMost1_1xTheCsv: m.wallSeconds <= 1.1 * csv.wallSeconds,
      peakWithin512Mb: m.peakMb <= 512,
    }));
}
