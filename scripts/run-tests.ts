// The test tasks turbo picks (`pnpm test [turbo flags]`), three at a time, the longest first. Turbo
// starts a package's tests once its build is done, in the graph's order, so the packages that need
// the most (usage-report, the CLI, trigger-build: two minutes each on two cores) started last and
// ran on after the rest had finished. Each still runs through turbo (`--only`: its build is done),
// in turbo's strict environment; every task runs even when one fails, and the exit code is the
// worst of theirs.
import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const turbo = fileURLToPath(new URL("../node_modules/.bin/turbo", import.meta.url));
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" };

/**
 * Seconds each package's tests took in CI on two cores beside the others (`.ci/run` at 987184a):
 * only their order matters. A package not listed (a new one) starts first, so that it never
 * becomes the tail unnoticed.
 */
const SECONDS: Record<string, number> = {
  "@cwp/usage-report": 158,
  "@cwp/trigger-build": 120,
  "@cwp/cli": 118,
  "@cwp/bench": 110,
  "@cwp/restart-service": 98,
  "@cwp/restore-backup": 85,
  "@cwp/run-job": 83,
  "@cwp/upgrade-addon": 82,
  "@cwp/run-template": 79,
  "@cwp/repo-scripts": 70,
  "@cwp/client-e2e": 56,
  "@cwp/examples": 40,
  "@cwp/cost-report": 36,
  "@cwp/emulator": 30,
  "@cwp/fetch-logs": 23,
  "@cwp/client": 22,
  "@cwp/workflow-rehearsal": 10,
  "@cwp/action-testing": 7,
  "@cwp/action-kit": 4,
  "@cwp/markdown-text": 1,
};
const AT_ONCE = 3;

/** The packages whose test task turbo runs for these flags (`--filter=...`). */
function testPackages(flags: string[]): string[] {
  const dry = execFileSync(turbo, ["run", "test", "--dry=json", ...flags], {
    cwd: root,
    env,
    encoding: "utf8",
  });
  const { tasks } = JSON.parse(dry) as { tasks: { taskId: string; package: string }[] };
  return tasks.filter((t) => t.taskId.endsWith("#test")).map((t) => t.package);
}

function runTests(pkg: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(turbo, ["run", "test", `--filter=${pkg}`, "--only", "--log-order=stream"], {
      cwd: root,
      env,
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", () => resolve(1));
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const flags = process.argv.slice(2);
const queue = testPackages(flags).sort(
  (a, b) => (SECONDS[b] ?? Number.POSITIVE_INFINITY) - (SECONDS[a] ?? Number.POSITIVE_INFINITY),
);
let status = 0;
const failed: string[] = [];
await Promise.all(
  Array.from({ length: AT_ONCE }, async () => {
    for (let pkg = queue.shift(); pkg !== undefined; pkg = queue.shift()) {
      const code = await runTests(pkg);
      if (code !== 0) failed.push(pkg);
      status = Math.max(status, code);
    }
  }),
);
if (failed.length > 0) console.error(`Tests failed in: ${failed.join(", ")}`);
process.exit(status);
