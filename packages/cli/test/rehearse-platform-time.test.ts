import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { userMachine } from "./rehearse-machine.js";
import { runCli } from "./run-cli.js";

// Our steps in a rehearsal count the platform's time, as they do on GitHub against the platform:
// the emulator runs 120× faster here, and a build that takes ten minutes of its time takes ten
// minutes for the step too. So the action's `timeout:`, a job's `timeout-minutes` ("the maximum
// number of minutes to let a job run before GitHub automatically cancels it",
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_idtimeout-minutes),
// the waits planned from a service's build history and "the last 5 minutes" of logs all read the
// platform's clock. Before, they read this machine's: the 10-minute build passed under a 5-minute
// timeout, a failing build showed none of its lines, and the last 5 minutes of logs were empty.

const WORLD = `projects:
  - id: shop
    team: platform
    services:
      - id: slow
        build: { durationSeconds: 600 }
      - id: quick
        build: { durationSeconds: 60 }
      - id: broken
        build:
          durationSeconds: 120
          succeed: false
          logLines: ["Step 1/3 : FROM node:24", "npm ERR! missing script: build"]
      - id: web
        runtimeLog: ["INFO GET / 200 12ms"]
`;

const step = (action: string, inputs: string, extra = "") =>
  `      - uses: acme/cwp/actions/${action}@v1\n${extra}        with:\n          project-id: shop\n          api-token: \${{ secrets.CWP_API_TOKEN }}\n${inputs
    .split("\n")
    .map((line) => `          ${line}`)
    .join("\n")}\n`;
const job = (id: string, steps: string, extra = "") =>
  `  ${id}:\n    runs-on: ubuntu-latest\n${extra}    steps:\n${steps}`;

const WORKFLOW = `on: push\njobs:\n${[
  job("within", step("trigger-build", "service-id: slow\ntimeout: 20m")),
  job("too-short", step("trigger-build", "service-id: slow\ntimeout: 5m")),
  job("job-timeout", step("trigger-build", "service-id: slow"), "    timeout-minutes: 4\n"),
  job("history", [1, 2, 3, 4].map(() => step("trigger-build", "service-id: quick")).join("")),
  job("broken", step("trigger-build", "service-id: broken")),
  job("logs", step("fetch-logs", "service-id: web\nduration: 5m")),
].join("")}`;

/** The lines the rehearsal printed for job `id`, up to the next job's. */
const jobPart = (stdout: string, id: string) => {
  const from = stdout.indexOf(`\njob ${id}\n`);
  const next = stdout.indexOf("\njob ", from + 1);
  return stdout.slice(from, next === -1 ? undefined : next);
};

/** "1m 5s" as milliseconds. */
const ms = (duration: string) =>
  [...duration.matchAll(/(\d+)([hms])/g)].reduce(
    (sum, [, n, unit]) => sum + Number(n) * { h: 3_600_000, m: 60_000, s: 1000 }[unit as "h" | "m" | "s"],
    0,
  );

describe("cwp rehearse: our steps on the platform's clock", () => {
  it("times out, waits, dates logs and reads recent logs on the emulator's time, as on the platform", async () => {
    const machine = await userMachine(WORKFLOW);
    const world = join(dirname(machine.clone), "world.yaml");
    await writeFile(world, WORLD);
    const { code, stdout, stderr } = await runCli(
      ["rehearse", machine.workflowFile, "--world", world, "--speed", "120", "--secret", "CWP_API_TOKEN=any"],
      { cwd: machine.clone, env: { NO_COLOR: "1", HOME: machine.home } },
    );
    const all = stdout + stderr;
    expect(code, all).toBe(1);
    expect(stdout).toContain("3 job(s) would fail: too-short, job-timeout, broken.");

    // Ten minutes of the platform's time, within the step's 20.
    const within = jobPart(stdout, "within");
    const took = /concluded SUCCESS in ((?:\d+[hms] ?)+)\./.exec(within)?.[1] ?? "";
    expect(ms(took), within).toBeGreaterThanOrEqual(600_000);
    expect(within).toContain("✔ job within would pass");

    // The same build under `timeout: 5m` times out, as it would on GitHub.
    const tooShort = jobPart(stdout, "too-short");
    expect(tooShort).toMatch(
      /did not conclude within 5m 0s \(last status \w+\); it was aborted on the platform/,
    );
    expect(tooShort).toContain("✘ job too-short would fail");
    // Its lines up to the timeout, and the platform's last word on the abort, read after the
    // deadline (within the closing's time): the last lines as the action's log shows them.
    expect(tooShort).toMatch(/Last \d+ log lines:(\n\s+│\s+.*)*\n\s+│\s+Build aborted\n/);
    expect(tooShort).not.toContain("Stopped reading the logs");

    // A job's timeout-minutes ends our step on the platform's time, in GitHub's words, and says so.
    const jobTimeout = jobPart(stdout, "job-timeout");
    expect(jobTimeout).toContain("Error: The job has exceeded the maximum execution time of 4 minutes.");
    expect(jobTimeout).toContain(
      "(our steps count the platform's time: 4m 0s of the emulator's, 2s here at 120× time; what a step does on this machine counts 120× too, a lower --speed counts it closer to GitHub)",
    );

    // Polls planned from the history's platform durations, slept on the platform's time: the 4th
    // build (three earlier ones to plan from) concludes about when its minute is up. Slept in this
    // machine's time, the planned minute was a minute here: two hours of the platform's at 120×.
    // (10 minutes leave a loaded machine 4 s of lag here.)
    const history = jobPart(stdout, "history");
    const durations = [...history.matchAll(/concluded SUCCESS in ((?:\d+[hms] ?)+)\./g)].map(([, d]) =>
      ms(d ?? ""),
    );
    expect(durations, history).toHaveLength(4);
    for (const duration of durations) expect(duration, history).toBeLessThan(10 * 60_000);

    // A failing build's last lines, read over the build's time on the platform.
    const broken = jobPart(stdout, "broken");
    expect(broken).toMatch(
      /Last 2 log lines:\n\s+│\s+Step 1\/3 : FROM node:24\n\s+│\s+npm ERR! missing script: build/,
    );

    // "The last 5 minutes" are the platform's last 5 minutes: the running service's lines are there.
    const lines = Number(/\n\s+lines: (\d+)\n/.exec(jobPart(stdout, "logs"))?.[1]);
    expect(lines, jobPart(stdout, "logs")).toBeGreaterThan(0);
  }, 120_000);
});
