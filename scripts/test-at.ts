// pnpm test:at "YYYY-MM-DD HH:MM" [...] [--filter=NAME ...]: every package's tests (or the named
// ones) with the machine's clock starting at each instant given (UTC), under libfaketime on the whole process
// tree: the test runner, the emulator in it, and every bundle, CLI and helper it starts (their
// harnesses pass LD_PRELOAD and FAKETIME* on, as they pass PATH). TZ, if set, is the machine's time
// zone for all of them. Each package runs in its own folder, not through turbo, whose strict
// environment would drop LD_PRELOAD; three (package, instant) runs at a time. What needs a clock that is
// not the one a test fixed itself shows here: a test green today and red at another instant.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tally } from "./test-results.ts";
import { packagesWithTests } from "./workspace-packages.ts";

const root = new URL("..", import.meta.url).pathname;
const AT_ONCE = 3;
/** A run's results file in its package's folder, one per instant: two instants of a package run at once. */
const resultsName = (at: Date) => `test-results-at-${at.getTime()}.json`;

function usage(problem: string): never {
  console.error(`pnpm test:at: ${problem}`);
  console.error(
    'usage: [TZ=Zone/City] pnpm test:at "YYYY-MM-DD HH:MM[:SS]" ["YYYY-MM-DD HH:MM" ...] [--filter=PACKAGE ...]',
  );
  process.exit(2);
}

const args = process.argv.slice(2);
const instants = args.filter((arg) => !arg.startsWith("--")).map(instantOf);
if (instants.length === 0) usage("give the instant to run at, in UTC");
const rest = args.filter((arg) => arg.startsWith("--"));

function instantOf(instant: string): Date {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}(?::\d{2})?)$/.exec(instant);
  const at = match ? new Date(`${match[1]}T${match[2]}Z`) : undefined;
  if (!match || !at || Number.isNaN(at.getTime()) || !at.toISOString().startsWith(match[1] as string))
    usage(`an instant must be a UTC date and time as "YYYY-MM-DD HH:MM" (got ${JSON.stringify(instant)})`);
  return at;
}
const filters = rest.map((arg) => {
  const name = /^--filter=(.+)$/.exec(arg)?.[1];
  if (!name) usage(`unknown argument ${JSON.stringify(arg)}: only --filter=PACKAGE (a package's name)`);
  return name;
});
// libfaketime's shared memory and semaphore of a `faketime` that was killed stay in /dev/shm, and
// a later `faketime` that gets the same process id fails on them (its README, "Cleaning up shared
// memory": delete them, "manually or properly automated"): those of processes gone are removed.
for (const name of await readdir("/dev/shm").catch(() => [] as string[])) {
  const pid = /^(?:faketime_shm_|sem\.faketime_sem_)(\d+)$/.exec(name)?.[1];
  if (pid === undefined) continue;
  try {
    process.kill(Number(pid), 0);
  } catch {
    await rm(join("/dev/shm", name), { force: true });
  }
}
try {
  execFileSync("faketime", ["-f", "+0", "true"], { stdio: ["ignore", "ignore", "pipe"] });
} catch (error) {
  usage(
    (error as NodeJS.ErrnoException).code === "ENOENT"
      ? "libfaketime's `faketime` is not on PATH: install Debian's package (apt-get install faketime)"
      : `libfaketime's \`faketime\` does not run here: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`,
  );
}

interface Workspace {
  name: string;
  path: string;
}
const withTests: Workspace[] = packagesWithTests().map(({ name, dir }) => ({ name, path: join(root, dir) }));
const unknown = filters.filter((f) => !withTests.some((w) => w.name === f));
if (unknown.length > 0)
  usage(
    `no package with tests is named ${unknown.join(", ")} (those with tests: ${withTests.map((w) => w.name).join(", ")})`,
  );
const picked = filters.length > 0 ? withTests.filter((w) => filters.includes(w.name)) : withTests;

// Built first, on the real clock: what turbo caches is no business of the instant.
console.log(`== build (${filters.length > 0 ? filters.join(", ") : "every package"}), on the real clock`);
execFileSync(
  "pnpm",
  ["exec", "turbo", "run", "build", ...picked.map((w) => `--filter=${w.name}`), "--output-logs=errors-only"],
  {
    cwd: root,
    stdio: "inherit",
  },
);

const zone = process.env.TZ ? `, TZ=${process.env.TZ}` : "";
const when = instants.map((at) => at.toISOString()).join(", ");
console.log(
  `== tests with the clock starting at ${when}${zone}: ${picked.length} packages at each, ${AT_ONCE} runs at a time`,
);
const logs = await mkdtemp(join(tmpdir(), "cwp-test-at-"));

interface Outcome {
  workspace: Workspace;
  at: Date;
  code: number | null;
  passed: number;
  failed: number;
  failures: string[];
}

async function runPackage(workspace: Workspace, at: Date): Promise<Outcome> {
  const log = join(logs, `${workspace.name.replace(/\W/g, "_")}-${at.getTime()}.log`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("TURBO_")));
  const child = spawn(
    "faketime",
    ["-f", `@${at.toISOString().slice(0, 19).replace("T", " ")}`, "pnpm", "test"],
    {
      cwd: workspace.path,
      env: {
        ...env,
        // Children go on from the parent's instant instead of starting at it again, and the
        // monotonic clock (timers, timeouts) stays the real one.
        FAKETIME_DONT_RESET: "1",
        FAKETIME_DONT_FAKE_MONOTONIC: "1",
        CWP_TEST_RESULTS_FILE: resultsName(at),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let text = "";
  child.stdout.on("data", (c: Buffer) => {
    text += c;
  });
  child.stderr.on("data", (c: Buffer) => {
    text += c;
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  await writeFile(log, text);
  const resultsFile = join(workspace.path, resultsName(at));
  const { passed, failed, failures } = existsSync(resultsFile)
    ? tally([resultsFile], root)
    : { passed: 0, failed: 0, failures: [] };
  await rm(resultsFile, { force: true });
  const outcome: Outcome = { workspace, at, code, passed, failed, failures };
  if (code !== 0 && outcome.failures.length === 0)
    outcome.failures.push(`${workspace.name}: exit ${code}, see ${log}`);
  const verdict = code === 0 ? "green" : "RED";
  console.log(
    `${workspace.name} at ${at.toISOString()}: ${verdict}, ${outcome.passed} passed, ${outcome.failed} failed (log: ${log})`,
  );
  if (code !== 0) console.log(text);
  return outcome;
}

const queue = instants.flatMap((at) => picked.map((workspace) => ({ workspace, at })));
const outcomes: Outcome[] = [];
await Promise.all(
  Array.from({ length: Math.min(AT_ONCE, queue.length) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      outcomes.push(await runPackage(next.workspace, next.at));
  }),
);
for (const at of instants) {
  const failures = outcomes.filter((o) => o.at === at).flatMap((o) => o.failures);
  if (failures.length > 0)
    console.log(`Failed at ${at.toISOString()}${zone}:\n${failures.map((f) => `  ${f}`).join("\n")}`);
}
const passed = outcomes.reduce((n, o) => n + o.passed, 0);
const failed = outcomes.reduce((n, o) => n + o.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(outcomes.every((o) => o.code === 0) ? 0 : 1);
