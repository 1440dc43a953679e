// pnpm demo: the emulator, and the actions' committed bundles run as the runner runs them: a
// build with its logs streaming, a job run, a template run that gates a release, then an addon
// upgrade, a backup restore, a service restart, a log fetch that gates on errors, and a cost
// report; and beside them, the same job run from the cwp CLI, as another CI system would run it.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { emulatorTime, PLATFORM_CLOCK } from "@cwp/action-kit/engine";
import { RunnerLog, type RunResult, runBundle, startTestPlatform } from "@cwp/action-testing";

/** A heading, bold only on a terminal without NO_COLOR: piped or logged, no escape code. */
const terminal: NodeJS.ProcessEnv = process.env;
const heading = (text: string) =>
  process.stdout.isTTY && terminal.NO_COLOR === undefined && terminal.TERM !== "dumb"
    ? `\x1b[1m${text}\x1b[0m`
    : text;

const platform = await startTestPlatform({ speed: 20 });
const base = { "api-token": platform.tokens.org, "api-url": platform.url };
// The steps count the emulator's time, as they count the platform's on GitHub: their waits,
// timeouts and the durations they print are the work's, not 20 times shorter.
const platformClock = { [PLATFORM_CLOCK]: JSON.stringify(await emulatorTime(platform.url)) };
console.log(`Emulator at ${platform.url} (virtual time at 20× speed)\n`);

async function step(title: string, action: string, inputs: Record<string, string>): Promise<RunResult> {
  console.log(heading(`━━ ${title}  (actions/${action})`));
  const log = new RunnerLog((line) => console.log(`  ${line}`));
  const result = await runBundle(new URL(`../actions/${action}`, import.meta.url).pathname, {
    inputs: { ...base, ...inputs },
    env: platformClock,
    onOutput: (text) => log.feed(text),
  });
  console.log(`  exit code ${result.code}`);
  console.log(`  outputs: ${JSON.stringify(result.outputs)}`);
  console.log("  job summary:");
  for (const line of result.summary.trim().split("\n")) console.log(`    ${line}`);
  console.log("");
  return result;
}

// A build of 400 s on the emulator's clock (20 s here), so its log lines show while it runs.
await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 400 });
const build = await step("Build the web service on push", "trigger-build", {
  "project-id": "platform-web",
  "service-id": "web",
  "build-arguments": "NPM_TOKEN=npm_demo_secret_token",
});
await step("Run the migration job on the built commit", "run-job", {
  "project-id": "platform-web",
  "job-id": "migrate",
  "build-service-id": "web",
  "build-sha": build.outputs.sha ?? "latest",
  "runtime-environment": "DATABASE-PASSWORD=demo-password-123\nLOG.LEVEL=info",
});
const gate = await step("Release, gated on the template run", "run-template", {
  "template-id": "release",
  arguments: `version: 1.0.0\nimage: ${build.outputs.image ?? ""}`,
});
console.log(gate.code === 0 ? "Release gate passed.\n" : "Release gate failed.\n");

await step("Upgrade the database addon", "upgrade-addon", {
  "project-id": "platform-web",
  "addon-id": "db",
  version: "17.0",
});
await step("Restore last night's snapshot into staging", "restore-backup", {
  "project-id": "platform-api",
  "addon-id": "db",
  "backup-id": "db-snapshot-1",
  "source-project-id": "platform-web",
  "source-addon-id": "db",
});
await step("Restart the web service", "restart-service", {
  "project-id": "platform-web",
  "service-id": "web",
});
const logs = await step(
  "Fetch the last 10 minutes of warnings and errors, and gate on errors",
  "fetch-logs",
  {
    "project-id": "platform-web",
    "service-id": "web",
    duration: "10m",
    "regex-includes": "^(WARN|ERROR)",
    "fail-on-regex": "^ERROR",
  },
);
console.log(
  logs.code === 0
    ? "No errors in the logs.\n"
    : "The log gate found an error line: that step failed, as it should.\n",
);

await step("This month's costs by project, against a budget", "usage-report", {
  "group-by": "project",
  budget: "2500",
  formats: "markdown json csv",
});

console.log(heading("━━ The same job run from the cwp CLI (GitLab CI, Jenkins, a terminal)"));
const args = ["run-job", "--project-id", "platform-web", "--job-id", "migrate", "--json"];
console.log(`  $ cwp ${args.join(" ")}`);
// Not spawnSync: the emulator answers from this process, so it must not block.
const cli = await promisify(execFile)(
  process.execPath,
  [new URL("../packages/cli/bin/cwp.js", import.meta.url).pathname, ...args],
  { env: { ...process.env, CWP_API_TOKEN: platform.tokens.org, CWP_API_URL: platform.url } },
).then(
  (done) => ({ ...done, code: 0 }),
  (failed: { stdout: string; stderr: string; code: number }) => failed,
);
for (const line of cli.stderr.trim().split("\n")) console.log(`  ${line}`);
console.log(`  stdout (--json): ${cli.stdout.trim()}`);
console.log(`  exit code ${cli.code}\n`);
await platform.close();
