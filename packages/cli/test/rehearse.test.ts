import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GIVEN, payloadFile, rehearse, root, SECRET } from "./example-rehearsals.js";
import { runCli } from "./run-cli.js";

// `cwp rehearse` as a user runs it from the clone: every example workflow, for each event it runs
// on, against the emulator on examples/world.yaml, with the verdicts the examples' own tests reach
// through the bundles (examples/test/examples*.test.ts); and a rehearsal stopped. What a runner
// would refuse, secrets and bad input: rehearse-refusals.test.ts. Each rehearsal starts its own
// emulator, so they run side by side.

interface Case {
  workflow: string;
  args?: string[];
  payload?: unknown;
  /** Each job's verdict line, as printed. */
  verdicts: string[];
  /** More that must be printed. */
  printed?: RegExp[];
  /** The exit code, when it depends on what the platform answered (default 0). */
  code?: (stdout: string) => number;
}

/** The workflow's own gate: 1 when the month so far is over its budget of 2,500. */
const overBudget = (stdout: string) =>
  Number(/Spent ([\d,.]+) USD/.exec(stdout)?.[1]?.replace(/,/g, "")) > 2500 ? 1 : 0;

const CASES: Record<string, Case> = {
  "build-on-push, push": {
    workflow: "build-on-push.yml",
    verdicts: ["✔ job build would pass"],
    printed: [/Build .* concluded SUCCESS/],
  },
  "build-on-push, pull request": {
    workflow: "build-on-push.yml",
    args: ["--event", "pull_request"],
    verdicts: ["✔ job build would pass"],
  },
  "deploy-production, push to main": {
    workflow: "deploy-production.yml",
    args: ["--ref", "main"],
    verdicts: ["✔ job deploy would pass"],
    printed: [
      /Run migrate-\S+ of job migrate in project shop concluded SUCCESS/,
      /not rehearsed \(GitHub only\): environment, environment-url/,
    ],
  },
  "preview, a pull request opened": {
    workflow: "preview-per-pull-request.yml",
    args: ["--event", "pull_request"],
    payload: { number: 42, pull_request: { number: 42 } },
    verdicts: [
      "job fork: would not run (its if: is false",
      "✔ job deploy would pass",
      "job teardown: would not run (its if: is false",
    ],
    printed: [
      /arguments: \{"pull-request": "42", "sha": "89abcdef0123456789abcdef0123456789abcdef"\}/,
      /environment: pr-42/,
    ],
  },
  "preview, the pull request closed": {
    workflow: "preview-per-pull-request.yml",
    args: ["--event", "pull_request"],
    payload: { action: "closed", number: 42, pull_request: { number: 42 } },
    verdicts: ["job fork: would not run", "job deploy: would not run", "✔ job teardown would pass"],
    printed: [/template preview-teardown concluded success/],
  },
  "preview, a fork's pull request": {
    workflow: "preview-per-pull-request.yml",
    args: ["--event", "pull_request"],
    payload: { pull_request: { head: { repo: { full_name: "someone/shop" } } } },
    verdicts: [
      '✔ job fork would pass as far as rehearsed; not rehearsed: "No preview for a fork" (a run: step, which runs only with --run-shell)',
      "job deploy: would not run",
      "job teardown: would not run",
    ],
    printed: [/○ No preview for a fork \(not run: a run: step, which runs only with --run-shell\)/],
  },
  "release, a tag pushed": {
    workflow: "release-gated-on-template.yml",
    args: ["--ref", "refs/tags/v1.4.2", "--secret", `CWP_API_TOKEN=${SECRET}`],
    verdicts: [
      '✔ job release would pass as far as rehearsed; not rehearsed: "Publish the GitHub release" (a run: step, which runs only with --run-shell)',
    ],
    printed: [/version: v1\.4\.2/, /RUN_ID: tr-/, /GH_TOKEN: $/m],
  },
  "nightly restore, scheduled": {
    workflow: "nightly-restore-and-verify.yml",
    args: ["--event", "schedule", "--var", "STAGING_BACKUP_ID=nightly-golden"],
    verdicts: [
      '✔ job restore would pass as far as rehearsed; not rehearsed: "actions/upload-artifact@v4" (another repository\'s action, which could not be downloaded: GitHub (http://127.0.0.1:2) could not be reached: ECONNREFUSED)',
    ],
    // fetch-logs' default file is under RUNNER_TEMP, the rehearsal's folder, as it is under the
    // runner's on GitHub: our steps get GitHub's default variables too.
    printed: [
      /status: completed/,
      /restarted-at: \d{4}-/,
      /file: \/\S*cwp-rehearsal-\w+\/cwp-logs-\d+\.log$/m,
    ],
  },
  "weekly cost report, scheduled": {
    workflow: "weekly-cost-report.yml",
    args: ["--event", "schedule"],
    verdicts: [
      '✔ job report would pass as far as rehearsed; not rehearsed: "actions/upload-artifact@v4" (another repository\'s action, which could not be downloaded: GitHub (http://127.0.0.1:2) could not be reached: ECONNREFUSED)',
    ],
    printed: [/not rehearsed \(GitHub only\): comment, issue-title, issue-label/, /Spent [\d.,]+ USD/],
  },
  "daily FOCUS export, scheduled, its date script run (--run-shell)": {
    workflow: "daily-focus-export.yml",
    args: ["--event", "schedule", "--run-shell"],
    verdicts: ["✔ job export would pass"],
    printed: [
      // The range a script computes reaches our step after it.
      /start: \d{4}-\d\d-01\n\s+end: \d{4}-\d\d-\d\d/,
      /focus-layout: partitioned/,
      /− Replace the periods' folders in S3/,
      /− google-github-actions\/auth@v2/,
    ],
  },
  "daily FOCUS export, its date script not run": {
    workflow: "daily-focus-export.yml",
    args: ["--event", "schedule"],
    verdicts: [
      '✔ job export would pass as far as rehearsed; not rehearsed: "Last month\'s first day to today (UTC)" (a run: step, which runs only with --run-shell), "acme/cwp/actions/usage-report@v1" (it reads a value unknown',
    ],
    printed: [
      /Every job that runs for this schedule would pass as far as rehearsed \(2 step\(s\) or job\(s\) not rehearsed, named above\)/,
      /\? acme\/cwp\/actions\/usage-report@v1 \(not rehearsed: it reads a value unknown \(set by the run: step "Last month's first day to today \(UTC\)", which the rehearsal does not run; --run-shell runs it\)\)/,
    ],
  },
  "cost report on a pull request": {
    workflow: "cost-report-on-pull-requests.yml",
    args: ["--event", "pull_request"],
    // Over the budget or not, the comment is made (not rehearsed); the job fails only over it.
    verdicts: ["job costs would"],
    // The month to date so far; in a month's first hour it has no whole hour yet, and says so.
    printed: [/not rehearsed \(GitHub only\): comment/, /Spent [\d,.]+ USD|has no whole hour yet/],
    code: overBudget,
  },
};

describe.concurrent("cwp rehearse: the example workflows against examples/world.yaml", () => {
  for (const [name, c] of Object.entries(CASES))
    it(name, { timeout: 60_000 }, async () => {
      const payload = c.payload === undefined ? [] : ["--event-payload", await payloadFile(c.payload)];
      const result = await rehearse([`examples/workflows/${c.workflow}`, ...(c.args ?? []), ...payload]);
      expect(result.stderr).toBe("");
      expect(result.code, result.stdout).toBe(c.code?.(result.stdout) ?? 0);
      const verdicts = result.stdout.split("\n").filter((l) => /^(✔|✘)? ?job \S+(:| would)/.test(l));
      expect(verdicts).toHaveLength(c.verdicts.length);
      // Each job's verdict, whichever order jobs side by side ended in; "would pass" whole only
      // where every step that decides it was rehearsed.
      const jobOf = (line: string) => /job (\S+?)(:| would)/.exec(line)?.[1];
      for (const verdict of c.verdicts) {
        const printed = verdicts.find((line) => jobOf(line) === jobOf(verdict));
        if (verdict.endsWith(" would pass")) expect(printed).toBe(verdict);
        else expect(printed).toContain(verdict);
      }
      for (const pattern of c.printed ?? []) expect(result.stdout).toMatch(pattern);
      expect(result.stdout).not.toContain(SECRET);
      // NO_COLOR, and not a terminal: no escape code anywhere, the steps' own lines included.
      expect(result.stdout).not.toContain("\x1b");
    });
});

// After the examples, not beside them: how soon a stop ends is timed (within 10 s of SIGINT).
describe("cwp rehearse: stopped", () => {
  it("on SIGINT ends every step's process, and itself", { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-rehearse-stop-"));
    const file = join(dir, "w.yml");
    await writeFile(
      file,
      `on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: acme/cwp/actions/run-template@v1\n        with:\n          template-id: release\n          api-token: \${{ secrets.CWP_API_TOKEN }}\n`,
    );
    // The emulator at 1×: the run takes its 40 s, and SIGINT comes as it starts.
    const result = await runCli(["rehearse", file, "--speed", "1", ...GIVEN], {
      env: { NO_COLOR: "1" },
      cancelWhen: (printed) => printed.includes("│ Started run"),
    });
    expect(result.cancelledAt).toBeDefined();
    expect(result.endedAt - (result.cancelledAt ?? 0)).toBeLessThan(10_000);
    // No step of it is left running: a run-template step of this rehearsal, known by the folder
    // it was given (other files' rehearsals run beside this one, with steps of their own).
    const folder = /files the steps write go to (\S+)/.exec(result.stdout)?.[1];
    expect(folder, result.stdout).toBeDefined();
    const left = [];
    for (const pid of await readdir("/proc"))
      if (/^\d+$/.test(pid)) {
        const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
        const environ = await readFile(`/proc/${pid}/environ`, "utf8").catch(() => "");
        if (
          cmdline.includes(`cwp.js\0run-template\0--json`) &&
          `\0${environ}`.includes(`\0RUNNER_TEMP=${folder}\0`)
        )
          left.push(cmdline);
      }
    expect(left).toEqual([]);
    expect(result.stdout).toMatch(/│ .*cancelled/);
  });

  it("a closed pipe (| head -1) ends it quietly, its steps with it", { timeout: 60_000 }, async () => {
    const result = await runCli(
      ["rehearse", "examples/workflows/build-on-push.yml", "--world", "examples/world.yaml"],
      {
        cwd: root,
        env: { NO_COLOR: "1" },
        closeStdoutWhen: (stdout) => stdout.includes("\n"),
      },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
  });
});
