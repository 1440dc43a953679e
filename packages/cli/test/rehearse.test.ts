import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

// `cwp rehearse` as a user runs it from the clone: every example workflow, for each event it runs
// on, against the emulator on examples/world.yaml, with the verdicts the examples' own tests reach
// through the bundles (packages/action-testing/test/examples.test.ts); then what a runner would
// refuse, secrets, and bad input. Each rehearsal starts its own emulator, so they run side by side.

const root = fileURLToPath(new URL("../../../", import.meta.url));
const HEAD_SHA = "89abcdef0123456789abcdef0123456789abcdef";
const SECRET = "cwp_rehearsal_secret_value_0042";

async function payloadFile(payload: unknown): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), "cwp-rehearse-test-")), "payload.json");
  await writeFile(file, JSON.stringify(payload));
  return file;
}

const rehearse = (args: string[]) =>
  runCli(["rehearse", ...args, "--world", "examples/world.yaml", "--speed", "300", "--sha", HEAD_SHA], {
    cwd: root,
    env: { NO_COLOR: "1" },
  });

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
    verdicts: ["✔ job fork would pass", "job deploy: would not run", "job teardown: would not run"],
    printed: [/○ No preview for a fork \(not run: not one of our actions\)/],
  },
  "release, a tag pushed": {
    workflow: "release-gated-on-template.yml",
    args: ["--ref", "refs/tags/v1.4.2", "--secret", `CWP_API_TOKEN=${SECRET}`],
    verdicts: ["✔ job release would pass"],
    printed: [/version: v1\.4\.2/, /RUN_ID: tr-/, /GH_TOKEN: $/m],
  },
  "nightly restore, scheduled": {
    workflow: "nightly-restore-and-verify.yml",
    args: ["--event", "schedule", "--var", "STAGING_BACKUP_ID=nightly-golden"],
    verdicts: ["✔ job restore would pass"],
    printed: [/status: completed/, /restarted-at: \d{4}-/],
  },
  "weekly cost report, scheduled": {
    workflow: "weekly-cost-report.yml",
    args: ["--event", "schedule"],
    verdicts: ["✔ job report would pass"],
    printed: [/not rehearsed \(GitHub only\): comment, issue-title, issue-label/, /Spent [\d.,]+ USD/],
  },
  "daily FOCUS export, scheduled": {
    workflow: "daily-focus-export.yml",
    args: ["--event", "schedule", "--var", "FOCUS_S3_BUCKET=acme-finops"],
    verdicts: ["✔ job export would pass"],
    printed: [
      /focus-layout: partitioned/,
      /○ Replace the periods' folders in S3/,
      /− google-github-actions\/auth@v2/,
    ],
  },
  "cost report on a pull request": {
    workflow: "cost-report-on-pull-requests.yml",
    args: ["--event", "pull_request"],
    // Over the budget or not, the comment is made (not rehearsed); the job fails only over it.
    verdicts: ["job costs would"],
    printed: [/not rehearsed \(GitHub only\): comment/, /Spent [\d,.]+ USD/],
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
      for (const [i, verdict] of c.verdicts.entries()) expect(verdicts[i]).toContain(verdict);
      for (const pattern of c.printed ?? []) expect(result.stdout).toMatch(pattern);
      expect(result.stdout).not.toContain(SECRET);
      // NO_COLOR, and not a terminal: no escape code anywhere, the steps' own lines included.
      expect(result.stdout).not.toContain("\x1b");
    });
});

describe.concurrent("cwp rehearse: what a runner would refuse, secrets, bad input", () => {
  it("names a misspelt input, an output no step sets, an unknown step and an expression it cannot evaluate; exits 1", async () => {
    const result = await rehearse([
      "packages/cli/test/fixtures/runner-would-refuse.yml",
      "--secret",
      `DEPLOY_TOKEN=${SECRET}`,
    ]);
    expect(result.code).toBe(1);
    const findings = result.stdout.split("\n").filter((l) => l.startsWith("  finding:"));
    expect(findings).toEqual([
      '  finding: job gate, step "acme/cwp/actions/run-template@0123456789abcdef0123456789abcdef01234567": run-template has no input "templat-id"; did you mean "template-id"?',
      '  finding: job gate, step "Run echo "$RUN"" reads steps.gate.outputs.run_id, which run-template does not set; did you mean "run-id"?',
      '  finding: job gate, step "Run echo "$RUN"" reads steps.build.outputs.image, but no step before it has the id "build"',
      `  finding: job gate, step "Run echo "$TAG"": expression " format('v{0}', github.sha) ": no function format()`,
    ]);
    // The step of ours ran, as a runner runs it without the input, and failed on what is missing.
    expect(result.stdout).toMatch(/--template-id: is required/);
    expect(result.stdout).toContain("TOKEN: ***");
    expect(result.stdout).not.toContain(SECRET);
    expect(result.stdout).toContain("✘ job gate would fail");
  });

  it("refuses bad input with exit 2 and one line naming it, starting nothing", async () => {
    const missing = await rehearse(["examples/workflows/nope.yml"]);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      "error: examples/workflows/nope.yml: cannot be read (ENOENT)\n",
    ]);
    const job = await rehearse(["examples/workflows/build-on-push.yml", "--job", "deploy"]);
    expect([job.code, job.stderr]).toEqual([
      2,
      "error: examples/workflows/build-on-push.yml has no job deploy; its jobs: build\n",
    ]);
    const event = await rehearse(["examples/workflows/deploy-production.yml", "--event", "schedule"]);
    expect(event.code).toBe(2);
    expect(event.stderr).toContain("does not run on schedule (its on: push); rehearse it with --event push");
    const secret = await rehearse(["examples/workflows/build-on-push.yml", "--secret", SECRET]);
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain("--secret takes NAME=VALUE");
    expect(secret.stderr).not.toContain(SECRET);
    for (const r of [missing, job, event, secret]) expect(r.stdout).toBe("");
  });
});
