// pnpm check:local-action: every action run by GitHub's own local runner, @github/local-action
// (nobody here wrote it), against the emulator: one success case each, its outputs and job summary
// read back from what the runner recorded. It runs each action's sources (src/main.ts through the
// kit), not the committed bundle: it replaces @actions/core by stubbing the module, which cannot
// reach into an ncc bundle (its README: "non-transpiled action code only"). Our own harness
// (@cwp/action-testing) runs the bundles.
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";

const root = new URL("..", import.meta.url).pathname;
const bin = join(root, "node_modules/.bin/local-action");

interface Case {
  action: string;
  inputs: Record<string, string>;
  /** Outputs the run must record, by name: a value or a pattern. */
  outputs: Record<string, string | RegExp>;
  /** What the job summary must say. */
  summary: RegExp;
}

const work = { "project-id": "platform-web" };
const CASES: Case[] = [
  {
    action: "trigger-build",
    inputs: { ...work, "service-id": "web", branch: "main" },
    outputs: { "build-id": /^[a-z]+-[a-z]+-\d{4}$/, status: "SUCCESS", concluded: "true" },
    summary: /SUCCESS/,
  },
  {
    action: "run-job",
    inputs: { ...work, "job-id": "migrate" },
    outputs: { "run-id": /^[0-9a-f-]{36}$/, status: "SUCCESS", concluded: "true" },
    summary: /SUCCESS/,
  },
  {
    action: "run-template",
    inputs: { "template-id": "release", arguments: "version: 1.2.3" },
    outputs: { "run-id": /^tr-/, status: "success", concluded: "true" },
    summary: /success/,
  },
  {
    action: "upgrade-addon",
    inputs: { ...work, "addon-id": "db", version: "17.0" },
    outputs: { "previous-version": "16.4", version: "17.0", status: "running" },
    summary: /17\.0/,
  },
  {
    action: "restore-backup",
    inputs: { ...work, "addon-id": "db", "backup-id": "db-live-1" },
    outputs: { "restore-id": /^rst-/, status: "completed" },
    summary: /completed/,
  },
  {
    action: "restart-service",
    inputs: { ...work, "service-id": "web" },
    outputs: { status: "COMPLETED", "restarted-at": /^\d{4}-\d\d-\d\dT/ },
    summary: /COMPLETED/,
  },
  {
    action: "fetch-logs",
    inputs: { ...work, "service-id": "web", duration: "10m", print: "false" },
    outputs: { lines: /^[1-9]\d*$/, file: /\.log$/ },
    summary: /\| Lines \| [1-9]/,
  },
  {
    action: "usage-report",
    inputs: { period: "last-month", formats: "json" },
    outputs: { total: /^\d+\.\d\d$/, currency: "USD" },
    summary: /Cloud Workload Platform costs/,
  },
];

/** The outputs local-action printed in its "Action Outputs" table. */
function recordedOutputs(stdout: string): Record<string, string> {
  const table = stdout.split("Action Outputs")[1] ?? "";
  return Object.fromEntries(
    [...table.matchAll(/│\s*\d+\s*│\s*'([^']+)'\s*│\s*'([^']*)'\s*│/g)].map((m) => [m[1], m[2]]),
  );
}

// The emulator as a user starts it (its first line says where it listens), a minute a second.
const child = spawn(process.execPath, [
  join(root, "packages/emulator/bin/cwp-emulator.js"),
  "--port",
  "0",
  "--speed",
  "60",
]);
const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
const emulator = { url: /listening on (\S+)/.exec(line)?.[1] ?? "" };
const fixtures = (await (await fetch(`${emulator.url}/_emulator/fixtures`)).json()) as {
  tokens: { org: string };
};
const dir = await mkdtemp(join(tmpdir(), "cwp-local-action-"));
/** One action run by local-action, its outputs and summary checked: what was wrong, each as a line. */
async function runCase(c: Case): Promise<string[]> {
  const problems: string[] = [];
  const summaryFile = join(dir, `${c.action}-summary.md`);
  const inputs = {
    "api-token": fixtures.tokens.org,
    "api-url": emulator.url,
    timeout: "5m",
    ...(c.action === "fetch-logs" ? { "output-file": join(dir, "fetch-logs.log") } : {}),
    ...(c.action === "usage-report" ? { "output-dir": join(dir, "usage-report") } : {}),
    ...c.inputs,
  };
  // local-action reads a dotenv file: one INPUT_* per line, new lines escaped.
  const env = [
    ...Object.entries(inputs).map(([k, v]) => `INPUT_${k.toUpperCase()}=${JSON.stringify(v)}`),
    `GITHUB_STEP_SUMMARY=${summaryFile}`,
  ].join("\n");
  await writeFile(join(dir, `${c.action}.env`), `${env}\n`);
  await writeFile(summaryFile, "");
  const started = Date.now();
  let stdout = "";
  try {
    ({ stdout } = await promisify(execFile)(
      bin,
      ["run", join(root, "actions", c.action), "src/main.ts", join(dir, `${c.action}.env`)],
      { cwd: join(root, "actions", c.action), timeout: 180_000, maxBuffer: 64 * 1024 * 1024 },
    ));
  } catch (error) {
    return [`${c.action}: local-action failed: ${(error as Error).message.slice(0, 2000)}`];
  }
  const outputs = recordedOutputs(stdout);
  for (const [name, want] of Object.entries(c.outputs)) {
    const got = outputs[name];
    if (got === undefined || (typeof want === "string" ? got !== want : !want.test(got)))
      problems.push(`${c.action}: output ${name} is ${JSON.stringify(got)}, expected ${want}`);
  }
  const summary = await readFile(summaryFile, "utf8");
  if (!c.summary.test(summary))
    problems.push(`${c.action}: the job summary does not match ${c.summary}: ${summary.slice(0, 500)}`);
  console.log(
    `${c.action}: ${Object.keys(outputs).length} outputs, summary ${summary.length} characters, ${Date.now() - started} ms`,
  );
  return problems;
}

// Two runs at a time: each mostly waits on the emulator's clock and local-action's start, and the
// actions work on different resources. Two lanes took the stage from 34 s to about half.
const problems: string[] = [];
try {
  const queue = [...CASES];
  const lane = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) problems.push(...(await runCase(c)));
  };
  await Promise.all([lane(), lane()]);
} finally {
  child.kill();
  await rm(dir, { recursive: true, force: true });
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(
  `local-action ran all ${CASES.length} actions against the emulator: outputs and summaries as expected`,
);
