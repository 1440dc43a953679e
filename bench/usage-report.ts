// bench/usage-report: the committed usage-report bundle, run as the runner runs it, against the
// emulator's organisation at three scales and four report shapes, with 50 ms of latency injected
// into every API request. Per cell: the requests made against the fewest the API allows, the wall
// time, the CPU time of the step and of the emulator, the step's peak memory (VmHWM), the bytes the
// API returned, and the time JSON.parse alone takes on those bytes in the same run (the floor: the
// same requests replayed, each usage entry parsed on its own, since a whole page can be larger than
// one string).
// Also the least step (least-step.ts): the same requests at once, parsed and dropped, in a process;
// and, for cells of at most 500 MB of answers, the step against those answers replayed
// (replay-server.ts: same latency, nothing making them).
// Run: pnpm build && pnpm --filter @cwp/bench run bench:usage-report
// BENCH_CELLS="50x20x50/last-12-months/day,10x10x20/*" picks cells; `*` matches any part.
// BENCH_FORMATS="markdown,csv,json,focus" sets the report's `formats` (default: the action's).
// BENCH_FOCUS_PARQUET=1 (with focus in BENCH_FORMATS): each cell also runs the same report with
// focus-parquet instead of focus, the two in turn FOCUS_ROUNDS times (BENCH_FOCUS_ROUNDS, default 3),
// and reports each one's median
// wall, its peak and its FOCUS file's size, against the targets (Parquet at most 1/8 of the CSV's
// bytes, no slower, peak at most 512 MB).
// Cells whose first run takes under QUICK_SECONDS run QUICK_RUNS times, and their floor is measured
// as many times: both are medians, every run listed (a single run of a half-second cell moves by a
// fifth on this machine, its floor by half). BENCH_RUNS sets the count for every cell.
// BENCH_AGAINST=/path/to/another/actions/usage-report (a built copy, e.g. of an earlier commit) and
// BENCH_RUNS=7: each cell runs both builds that many times, in turn, and reports each one's walls
// and median (a change measured against the same emulator, minutes apart rather than runs apart).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { runBundle } from "@cwp/action-testing";
import { JsonArraySplitter } from "@cwp/client";
import { controlPlane } from "@cwp/emulator";
import { request } from "undici";
import { startReplay } from "./replay-server.ts";

const SCALES = ["10x10x20", "20x20x50", "50x20x50"];
const SHAPES = [
  { period: "last-12-months", granularity: "month" },
  { period: "last-30-days", granularity: "day" },
  { period: "last-12-months", granularity: "day" },
  { period: "month-to-date", granularity: "hour" },
] as const;
const LATENCY_MS = 50;
/** Cells whose answers are at most this large are also run against their answers replayed. */
const REPLAY_MAX_BYTES = 500e6;
const CORES = availableParallelism();
const PAGE_SIZE = { hour: 100, day: 100, month: 12 } as const;
const root = fileURLToPath(new URL("..", import.meta.url));
const formats = process.env.BENCH_FORMATS;
const against = process.env.BENCH_AGAINST;
const focusParquet = process.env.BENCH_FOCUS_PARQUET === "1";
const FOCUS_ROUNDS = Number(process.env.BENCH_FOCUS_ROUNDS ?? 3);
if (focusParquet && !formats?.split(",").includes("focus"))
  throw new Error("BENCH_FOCUS_PARQUET=1 compares focus with focus-parquet: give BENCH_FORMATS with focus");
const QUICK_SECONDS = 2;
const QUICK_RUNS = 5;
const runsAsked = process.env.BENCH_RUNS === undefined ? undefined : Number(process.env.BENCH_RUNS);
const picked = (process.env.BENCH_CELLS ?? "*/*/*").split(",").map((p) => p.trim().split("/"));
const wanted = (cell: string[]) =>
  picked.some((p) => cell.every((part, i) => p[i] === undefined || p[i] === "*" || p[i] === part));

/**
 * CPU seconds a process has used (all its threads), in user space and in the kernel (its writes
 * and page faults): /proc/<pid>/stat counts them in clock ticks, 100 a second on Linux.
 */
async function cpuTimes(pid: number): Promise<{ user: number; system: number } | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return stat ? { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 } : undefined;
}
async function cpuSeconds(pid: number): Promise<number | undefined> {
  const times = await cpuTimes(pid);
  return times && times.user + times.system;
}

/** Peak resident memory of a process: Linux keeps its high-water mark in /proc/<pid>/status. */
async function peakKb(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
  return hwm ? Number(hwm[1]) : undefined;
}

async function startEmulator(scale: string) {
  // In a process of its own, so the step's memory is the step's alone.
  const child = spawn(process.execPath, [
    join(root, "packages/emulator/bin/cwp-emulator.js"),
    "--port",
    "0",
    "--speed",
    "0",
    "--rate-limit",
    "1000000",
    "--scale",
    scale,
  ]);
  const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
  const url = /listening on (\S+)/.exec(String(line))?.[1] ?? "";
  return { child, url, control: controlPlane(url) };
}

type LogEntry = { method: string; path: string; query: Record<string, string>; bytes: number };

/** The fewest requests the API allows for the report, from its period and the world. */
function minimumRequests(
  report: {
    period: { start: string; end: string };
    granularity: keyof typeof PAGE_SIZE;
    byocClusters: unknown[] | null;
  },
  projects: number,
  /** The teams whose names the FOCUS dataset reads besides the grouping's (0 without it). */
  teams: number,
  /** With the FOCUS dataset (its InvoiceId reads the invoice list). */
  focus: boolean,
): number {
  const start = Date.parse(report.period.start);
  const end = Date.parse(report.period.end);
  const buckets = {
    month: monthsBetween(start, end),
    day: (end - start) / 86_400_000,
    hour: (end - start) / 3_600_000,
  }[report.granularity];
  const wholeMonths = wholeMonthsIn(start, end);
  return (
    Math.ceil(projects / 100) + // project names, 100 per page
    Math.ceil(teams / 100) + // with the FOCUS dataset, team names too, 100 per page
    2 + // one `total` for the period and one for the previous one (each at most 366 days)
    Math.ceil(Math.ceil(buckets) / PAGE_SIZE[report.granularity]) + // the trend at its largest page
    1 + // the credit balance
    (report.byocClusters && wholeMonths > 0 ? wholeMonths : 0) + // invoices: one detail per month with BYOC
    (focus || (report.byocClusters && wholeMonths > 0) ? 1 : 0) // the invoice list: for those and for InvoiceId, once
  );
}
const monthsBetween = (start: number, end: number) => {
  const s = new Date(start);
  const e = new Date(end);
  return (
    (e.getUTCFullYear() - s.getUTCFullYear()) * 12 +
    e.getUTCMonth() -
    s.getUTCMonth() +
    (e.getUTCDate() > 1 || e.getUTCHours() > 0 ? 1 : 0)
  );
};
const wholeMonthsIn = (start: number, end: number) => {
  let count = 0;
  const d = new Date(start);
  let month = Date.UTC(
    d.getUTCFullYear(),
    d.getUTCMonth() + (d.getUTCDate() === 1 && d.getUTCHours() === 0 ? 0 : 1),
    1,
  );
  for (;;) {
    const m = new Date(month);
    const next = Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1);
    if (next > end) return count;
    count += 1;
    month = next;
  }
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Replays the usage lists the report read and times JSON.parse alone on every byte of them. */
async function parseFloor(url: string, token: string, log: LogEntry[]) {
  let ms = 0;
  let bytes = 0;
  for (const entry of log.filter((e) => e.path === "/v1/billing/usage")) {
    const res = await request(`${url}${entry.path}?${new URLSearchParams(entry.query)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const splitter = new JsonArraySplitter(["data", "usage"]);
    const time = (text: string) => {
      const t = performance.now();
      JSON.parse(text);
      ms += performance.now() - t;
    };
    for await (const chunk of res.body) {
      bytes += chunk.length;
      for (const piece of splitter.write(chunk)) time(piece.text);
    }
    time(splitter.end());
  }
  return { ms, bytes };
}

/** Wall seconds of bench/least-step.ts replaying the report's requests in a process of its own. */
async function leastStepSeconds(url: string, token: string, log: LogEntry[]): Promise<number> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      join(root, "bench/least-step.ts"),
      ...log.map((e) => `${e.bytes}:${e.path}?${new URLSearchParams(e.query)}`),
    ],
    { env: { ...process.env, BENCH_URL: url, BENCH_TOKEN: token }, stdio: "inherit" },
  );
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`least-step exited with ${code}`);
  return (performance.now() - started) / 1000;
}

type StepRun = (
  actionDir: string,
  apiUrl?: string,
  stepFormats?: string,
) => Promise<{ wall: number; peak: number }>;

/** The same report writing focus.csv, then focus.parquet instead, in turn: walls, peaks, sizes. */
async function compareFocusFiles(runStep: StepRun, out: string) {
  const actionDir = join(root, "actions/usage-report");
  const variants = [
    { file: "focus.csv", formats: formats as string },
    { file: "focus.parquet", formats: (formats as string).replace(/\bfocus\b/, "focus-parquet") },
  ];
  const measured = variants.map(() => ({ walls: [] as number[], peaks: [] as number[], bytes: 0 }));
  for (let round = 0; round < FOCUS_ROUNDS; round++)
    for (const [i, variant] of variants.entries()) {
      const run = await runStep(actionDir, undefined, variant.formats);
      const m = measured[i] as (typeof measured)[number];
      m.walls.push(run.wall);
      m.peaks.push(run.peak);
      m.bytes = (await stat(join(out, variant.file))).size;
    }
  const [csv, parquet] = measured.map((m, i) => ({
    file: variants[i]?.file,
    mb: Number((m.bytes / 1e6).toFixed(1)),
    wallMedianSeconds: Number(median(m.walls).toFixed(2)),
    walls: m.walls.map((w) => Number(w.toFixed(2))),
    peakMb: Math.round(Math.max(...m.peaks) / 1024),
    bytes: m.bytes,
  }));
  if (!csv || !parquet) throw new Error("both FOCUS files are measured");
  return {
    csv,
    parquet,
    targets: {
      parquetAtMostAnEighth: parquet.bytes * 8 <= csv.bytes,
      parquetNoSlower: parquet.wallMedianSeconds <= csv.wallMedianSeconds,
      parquetPeakWithin512Mb: parquet.peakMb <= 512,
    },
  };
}

const cells: unknown[] = [];
for (const scale of SCALES) {
  const shapes = SHAPES.filter((s) => wanted([scale, s.period, s.granularity]));
  if (shapes.length === 0) continue;
  const emulator = await startEmulator(scale);
  for (const shape of shapes) {
    await emulator.control("POST", "reset");
    const fixtures = (await emulator.control("GET", "fixtures")) as {
      tokens: { org: string };
      projects: unknown[];
      teams: unknown[];
    };
    await emulator.control("POST", "faults", { path: "/v1/*", delayMs: LATENCY_MS, times: 1_000_000 });
    const out = join(tmpdir(), `cwp-bench-usage-report-${process.pid}`);
    /** The step once, as the runner runs it: its wall and CPU time, its peak, the emulator's CPU. */
    const runStep = async (actionDir: string, apiUrl = emulator.url, stepFormats = formats) => {
      await rm(out, { recursive: true, force: true });
      let peak = 0;
      let cpu = 0;
      let systemCpu = 0;
      const emulatorCpuBefore = (await cpuSeconds(emulator.child.pid ?? 0)) ?? 0;
      const started = performance.now();
      const result = await runBundle(actionDir, {
        inputs: {
          "api-token": fixtures.tokens.org,
          "api-url": apiUrl,
          period: shape.period,
          granularity: shape.granularity,
          "group-by": "project",
          "output-dir": out,
          ...(stepFormats ? { formats: stepFormats } : {}),
          timeout: "60m",
        },
        onSpawn: (pid) => {
          // Sampled every 20 ms until the process is gone: the last sample is within 20 ms of its end.
          const timer = setInterval(async () => {
            const [kb, times] = await Promise.all([peakKb(pid), cpuTimes(pid)]);
            if (kb === undefined || times === undefined) clearInterval(timer);
            else {
              peak = Math.max(peak, kb);
              cpu = Math.max(cpu, times.user + times.system);
              systemCpu = Math.max(systemCpu, times.system);
            }
          }, 20);
        },
        killAfterMs: 60 * 60_000,
      });
      const wall = (performance.now() - started) / 1000;
      const emulatorCpu = ((await cpuSeconds(emulator.child.pid ?? 0)) ?? 0) - emulatorCpuBefore;
      if (result.code !== 0) {
        console.error(result.stdout.slice(-3000), result.stderr.slice(-3000));
        throw new Error(`${scale} ${shape.period} by ${shape.granularity}: the step failed (${actionDir})`);
      }
      return { result, wall, peak, cpu, systemCpu, emulatorCpu };
    };
    const first = await runStep(join(root, "actions/usage-report"));
    const { result, peak: stepPeakKb, cpu: stepCpu, systemCpu: stepSystemCpu, emulatorCpu } = first;
    const report = JSON.parse(await readFile(join(out, "report.json"), "utf8"));
    const files = await readdir(out);
    const writtenBytes = (await Promise.all(files.map((f) => stat(join(out, f))))).reduce(
      (sum, s) => sum + s.size,
      0,
    );
    const log = ((await emulator.control("GET", "requests")) as { requests: LogEntry[] }).requests;
    // Further runs (BENCH_RUNS, BENCH_AGAINST) come after the first run's files and request log are
    // taken: they only time the step, this build's and the other's in turn.
    const runs = runsAsked ?? (first.wall < QUICK_SECONDS ? QUICK_RUNS : 1);
    const walls: Record<string, number[]> = { this: [first.wall], ...(against ? { against: [] } : {}) };
    for (let round = 0; round < runs; round++) {
      if (against) walls.against?.push((await runStep(against)).wall);
      if (round > 0) walls.this?.push((await runStep(join(root, "actions/usage-report"))).wall);
    }
    const wallSeconds = median(walls.this ?? []);
    const apiBytes = log.reduce((sum, e) => sum + e.bytes, 0);
    const progressLines = result.stdout.split("\n").filter((l) => l.startsWith("Usage by ")).length;
    const floors: Array<{ ms: number; bytes: number }> = [];
    for (let round = 0; round < runs; round++)
      floors.push(await parseFloor(emulator.url, fixtures.tokens.org, log));
    const floor = { ms: median(floors.map((f) => f.ms)), bytes: floors[0]?.bytes ?? 0 };
    const leastStep = await leastStepSeconds(emulator.url, fixtures.tokens.org, log);
    const replay =
      apiBytes <= REPLAY_MAX_BYTES
        ? await startReplay(emulator.url, fixtures.tokens.org, log, LATENCY_MS)
        : undefined;
    const replayed = replay && (await runStep(join(root, "actions/usage-report"), replay.url));
    const replayMisses = replay?.misses();
    await replay?.close();
    const focusFiles = focusParquet ? await compareFocusFiles(runStep, out) : undefined;
    const focusAsked = /\bfocus/.test(formats ?? "");
    const minimum = minimumRequests(
      report,
      fixtures.projects.length,
      focusAsked ? fixtures.teams.length : 0,
      focusAsked,
    );
    const bound = (3 * floor.ms + LATENCY_MS * log.length) / 1000;
    const cell = {
      scale,
      period: shape.period,
      granularity: shape.granularity,
      requestsMade: report.requests.count,
      requestsSeenByEmulator: log.length,
      requestsMinimum: minimum,
      // Hundredths: the smallest cells' bound is half a second, and they are compared unrounded.
      wallSeconds: Number(wallSeconds.toFixed(2)),
      jsonParseFloorSeconds: Number((floor.ms / 1000).toFixed(2)),
      wallBoundSeconds: Number(bound.toFixed(2)),
      // Starting Node, every request at once, each answer parsed and dropped: what the floor leaves
      // out (start-up, transfer, the emulator's own time) is in here.
      leastStepSeconds: Number(leastStep.toFixed(2)),
      // The step against the same answers replayed (same latency, nothing making them): its wall
      // without the emulator's work beside it on this machine. Small cells only (recorded to disk).
      ...(replayed ? { replayedStepSeconds: Number(replayed.wall.toFixed(2)), replayMisses } : {}),
      stepCpuSeconds: Number(stepCpu.toFixed(1)),
      stepSystemCpuSeconds: Number(stepSystemCpu.toFixed(1)),
      emulatorCpuSeconds: Number(emulatorCpu.toFixed(1)),
      // Both run on this machine's cores: the least wall time their CPU time allows here, were the
      // step to use every core. Above the bound, the bound cannot be met on this machine without
      // less work in the step or the emulator, whatever the step runs in parallel.
      cpuOverCoresSeconds: Number(((stepCpu + emulatorCpu) / CORES).toFixed(1)),
      stepPeakMb: Math.round(stepPeakKb / 1024),
      emulatorPeakMb: Math.round(((await peakKb(emulator.child.pid ?? 0)) ?? 0) / 1024),
      apiMb: Math.round(apiBytes / 1e6),
      filesWritten: files.sort().join(" "),
      writtenMb: Math.round(writtenBytes / 1e6),
      replayedUsageMb: Math.round(floor.bytes / 1e6),
      progressLines,
      total: `${report.total} ${report.currency}`,
      ...(runs > 1 || against
        ? {
            floorSeconds: floors.map((f) => Number((f.ms / 1000).toFixed(2))),
            walls: Object.fromEntries(
              Object.entries(walls).map(([build, w]) => [
                build,
                { medianSeconds: Number(median(w).toFixed(2)), seconds: w.map((x) => Number(x.toFixed(2))) },
              ]),
            ),
          }
        : {}),
      ...(focusFiles ? { focusFiles } : {}),
      targets: {
        requests: report.requests.count === minimum,
        memory: stepPeakKb <= 512 * 1024,
        wall: wallSeconds <= bound,
      },
    };
    console.log(JSON.stringify(cell));
    cells.push(cell);
    await rm(out, { recursive: true, force: true });
  }
  emulator.child.kill();
}
console.log(
  JSON.stringify(
    {
      node: process.version,
      cores: CORES,
      latencyMsPerRequest: LATENCY_MS,
      formats: formats ?? "default",
      ...(focusParquet ? { focusParquetRounds: FOCUS_ROUNDS } : {}),
      runs: runsAsked ?? `${QUICK_RUNS} where the first run takes under ${QUICK_SECONDS} s, else 1`,
      ...(against ? { against } : {}),
      cells,
    },
    null,
    2,
  ),
);
