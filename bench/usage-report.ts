// bench/usage-report: the usage-report bundle against the emulator's organisation scaled to
// 50 teams × 20 projects × 50 resources, for a 12-month period, with 50 ms of latency injected
// into every API request. Reports the requests made against the fewest the API allows for the
// same report, the wall time, and the action's peak memory.
// Run: pnpm build && pnpm --filter @cwp/bench run bench:usage-report
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { runBundle } from "@cwp/action-testing";
import { controlPlane } from "@cwp/emulator";

const SCALE = {
  teams: 50,
  projectsPerTeam: 20,
  resourcesPerProject: 50,
  ...JSON.parse(process.env.BENCH_SCALE ?? "{}"),
};
const LATENCY_MS = 50;
const root = fileURLToPath(new URL("..", import.meta.url));

// The emulator in a process of its own, so the action's memory is the action's alone.
const emulator = spawn(process.execPath, [
  join(root, "packages/emulator/bin/cwp-emulator.js"),
  "--port",
  "0",
  "--speed",
  "0",
  "--rate-limit",
  "1000000",
  "--scale",
  `${SCALE.teams}x${SCALE.projectsPerTeam}x${SCALE.resourcesPerProject}`,
]);
const [firstLine] = (await once(createInterface({ input: emulator.stdout }), "line")) as [string];
const url = /listening on (\S+)/.exec(String(firstLine))?.[1] ?? "";
const control = controlPlane(url);
const fixtures = (await control("GET", "fixtures")) as {
  tokens: { org: string };
  projects: unknown[];
  teams: unknown[];
};
await control("POST", "faults", { path: "/v1/*", delayMs: LATENCY_MS, times: 1_000_000 });

/** Peak resident memory of a process: Linux keeps its high-water mark in /proc/<pid>/status. */
let peakKb = 0;
const watch = (pid: number) => {
  const timer = setInterval(async () => {
    const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
    if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
    else clearInterval(timer);
  }, 20);
};

const out = join(tmpdir(), `cwp-bench-usage-report-${process.pid}`);
const started = performance.now();
const result = await runBundle(join(root, "actions/usage-report"), {
  inputs: {
    "api-token": fixtures.tokens.org,
    "api-url": url,
    period: "last-12-months",
    granularity: "month",
    "group-by": "project",
    "output-dir": out,
    timeout: "30m",
  },
  onSpawn: watch,
  killAfterMs: 30 * 60_000,
});
const wallSeconds = (performance.now() - started) / 1000;
const report = JSON.parse(await readFile(join(out, "report.json"), "utf8"));
const requests = (await control("GET", "requests")) as { requests: Array<{ path: string }> };
emulator.kill();

// The fewest requests the API allows for this report: one `total` for the period and one for the
// previous period (each at most 366 days), the 12 months of the trend in one page (perPage 12),
// the credit balance, the project names at 100 per page, the invoice list (one page), and one
// invoice detail per month for the BYOC cluster allocations (only invoices have them).
const projects = fixtures.projects.length;
const minimum = 1 + 1 + 1 + 1 + Math.ceil(projects / 100) + 1 + 12;
console.log(
  JSON.stringify(
    {
      node: process.version,
      scale: SCALE,
      reportRows: report.allRows.length,
      exitCode: result.code,
      requestsMade: report.requests.count,
      requestsSeenByEmulator: requests.requests.length,
      requestsMinimum: minimum,
      latencyMsPerRequest: LATENCY_MS,
      wallSeconds: Number(wallSeconds.toFixed(2)),
      peakRssMb: Math.round(peakKb / 1024),
      total: `${report.total} ${report.currency}`,
    },
    null,
    2,
  ),
);
if (result.code !== 0) console.error(result.stdout.slice(-2000), result.stderr.slice(-2000));
