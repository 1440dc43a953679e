// cwp rehearse --run-shell on a Node repository's CI, cold and warm (bench/README.md, rehearse-ci).
//
// The repository is fixture/: a package.json and lockfile with a linter and a test runner (eslint,
// mocha: 155 packages from the registry), and a workflow of two jobs: `check` (checkout, a set-up
// action written as actions/setup-node's core: the tool cache, then `cache: npm` through
// @actions/cache; npm ci, lint, test) and `other`, which needs nothing. Each run rehearses it in a
// clone of its own; cold with an empty cwp cache folder (no tool, no cache, no runner folders),
// warm with the folder an earlier run left. Times: the rehearsal's wall time, and each job's from
// the --json document. Median of BENCH_RUNS (3).

import { execFileSync, spawn } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, "../../packages/cli/bin/cwp.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/**
 * The Node.js and npm the set-up action "downloads" into the tool cache: the first on PATH laid out
 * as a release is (bin/node beside lib/node_modules/npm), this machine's own (not pnpm's shim).
 */
const RELEASE =
  process.env.BENCH_NODE_RELEASE ??
  (process.env.PATH ?? "")
    .split(delimiter)
    .map((dir) => join(realpathOr(join(dir, "node")), "../.."))
    .find((prefix) => existsSync(join(prefix, "lib/node_modules/npm/bin/npm-cli.js")));
if (RELEASE === undefined) throw new Error("no Node.js with npm on PATH: name one with BENCH_NODE_RELEASE");

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

interface Measured {
  workflow: number;
  jobs: Record<string, number>;
  cacheHit: boolean;
}

/** A clone of the fixture, its action's imports made absolute (they resolve from this package). */
async function fixtureClone(): Promise<string> {
  const clone = join(await mkdtemp(join(tmpdir(), "cwp-bench-ci-")), "app");
  await cp(join(here, "fixture"), clone, { recursive: true });
  for (const file of ["main.mjs", "post.mjs"]) {
    const path = join(clone, ".github/actions/setup-node-core", file);
    let text = await readFile(path, "utf8");
    for (const name of ["@actions/cache", "@actions/core", "@actions/tool-cache"])
      text = text.replaceAll(`from "${name}"`, `from ${JSON.stringify(import.meta.resolve(name))}`);
    await writeFile(path, text);
  }
  const git = (...args: string[]) => execFileSync("git", args, { cwd: clone, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("add", ".");
  git("-c", "user.email=bench@example.com", "-c", "user.name=bench", "commit", "-q", "-m", "fixture");
  return clone;
}

/** One rehearsal of the fixture's CI with `cache` as cwp's cache folder (XDG_CACHE_HOME). */
async function rehearse(cache: string): Promise<Measured> {
  const clone = await fixtureClone();
  const started = performance.now();
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve) => {
      const child = spawn(
        process.execPath,
        [
          CLI,
          "rehearse",
          ".github/workflows/ci.yml",
          "--run-shell",
          "--json",
          "--var",
          `NODE_RELEASE=${RELEASE}`,
        ],
        { cwd: clone, env: { ...process.env, XDG_CACHE_HOME: cache, NO_COLOR: "1" } },
      );
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk) => (out += chunk));
      child.stderr.on("data", (chunk) => (err += chunk));
      child.on("close", (exit) => resolve({ code: exit, stdout: out, stderr: err }));
    },
  );
  const workflow = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`the rehearsal failed (exit ${code}):\n${stderr}`);
  const document = JSON.parse(stdout) as { jobs: { id: string; seconds: number | null }[] };
  return {
    workflow,
    jobs: Object.fromEntries(document.jobs.map((job) => [job.id, job.seconds ?? Number.NaN])),
    cacheHit: /Cache restored from key: node-cache-/.test(stderr),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const round = (seconds: number) => Math.round(seconds * 100) / 100;

function summary(runs: Measured[]) {
  const jobs = Object.keys(runs[0]?.jobs ?? {});
  return {
    workflow: round(median(runs.map((r) => r.workflow))),
    jobs: Object.fromEntries(
      jobs.map((job) => [job, round(median(runs.map((r) => r.jobs[job] ?? Number.NaN)))]),
    ),
    runs: runs.map((r) => ({ workflow: round(r.workflow), jobs: r.jobs, cacheHit: r.cacheHit })),
  };
}

const cold: Measured[] = [];
const warm: Measured[] = [];
const kept = await mkdtemp(join(tmpdir(), "cwp-bench-cache-"));
for (let i = 0; i < RUNS; i++)
  cold.push(await rehearse(i === 0 ? kept : await mkdtemp(join(tmpdir(), "cwp-bench-cache-"))));
for (let i = 0; i < RUNS; i++) warm.push(await rehearse(kept));
const coldSummary = summary(cold);
const warmSummary = summary(warm);
const longest = (s: ReturnType<typeof summary>) => Math.max(...Object.values(s.jobs));
const result = {
  runs: RUNS,
  release: RELEASE,
  cold: coldSummary,
  warm: warmSummary,
  warmOverCold: round(warmSummary.workflow / coldSummary.workflow),
  workflowOverLongestJob: {
    cold: round(coldSummary.workflow / longest(coldSummary)),
    warm: round(warmSummary.workflow / longest(warmSummary)),
  },
  targets: {
    warmAtMost60PercentOfCold: warmSummary.workflow <= 0.6 * coldSummary.workflow,
    workflowWithin1_2xLongestJob:
      coldSummary.workflow <= 1.2 * longest(coldSummary) &&
      warmSummary.workflow <= 1.2 * longest(warmSummary),
    everyWarmRunRestoredTheCache: warm.every((r) => r.cacheHit),
  },
};
console.log(JSON.stringify(result, null, 2));
