// pnpm test [--filter=PACKAGE ...] [vitest's arguments]: every package's tests (or those turbo's
// filters pick: a name, `...[main]` for what a change can break) after their builds, as one vitest
// run (vitest.config.ts: each package a project, one pool of workers for the machine, the slowest
// files first). Every test runs even when one fails, so a red run lists every failure. It closes
// with the ten slowest files: where the time goes.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { slowestFiles, tally } from "./test-results.ts";
import { packagesWithTests } from "./workspace-packages.ts";

const root = new URL("..", import.meta.url).pathname;
const bin = (name: string) => join(root, "node_modules/.bin", name);
const args = process.argv.slice(2);
const filters = args.filter((arg) => arg.startsWith("--filter="));
const rest = args.filter((arg) => !arg.startsWith("--filter="));
const quiet = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" };

/** The packages with tests the filters pick, as turbo reads the filters (with none, every package). */
function picked(): { name: string; dir: string }[] {
  const listed = execFileSync(bin("turbo"), ["ls", ...filters, "--output=json"], {
    cwd: root,
    encoding: "utf8",
    env: quiet,
  });
  const { items } = (
    JSON.parse(listed.slice(listed.indexOf("{"))) as { packages: { items: { name: string }[] } }
  ).packages;
  const names = new Set(items.map((p) => p.name));
  return packagesWithTests().filter((p) => names.has(p.name));
}

const packages = picked();
if (packages.length === 0) {
  console.log(`No package to test: ${filters.join(" ")} picks none.`);
  process.exit(0);
}

// Built first, through turbo's cache (each package and what it needs): tests run what is built.
const build = spawnSync(
  bin("turbo"),
  ["run", "build", ...packages.map((p) => `--filter=${p.name}`), "--output-logs=errors-only"],
  { cwd: root, stdio: "inherit", env: quiet },
);
if (build.status !== 0) process.exit(build.status ?? 1);

// This run's results only: the slowest files below are never an earlier run's.
const results = resolve(root, process.env.CWP_TEST_RESULTS_FILE ?? "test-results.json");
rmSync(results, { force: true });
const run = spawnSync(bin("vitest"), ["run", ...rest], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    // build-first.ts: the builds are done.
    CWP_TESTS_BUILT: "1",
    // vitest.config.ts: with filters, the test files of the packages they pick, and no others.
    ...(filters.length > 0 ? { CWP_TEST_FOLDERS: packages.map((p) => p.dir).join(",") } : {}),
  },
});
if (existsSync(results)) console.log(slowestFiles(tally([results], root)));
process.exit(run.status ?? 1);
