import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  latestState,
  leakedSecrets,
  type StandIn,
  startGitHubStandIn,
  startTestPlatform,
  type TestPlatform,
} from "@cwp/action-testing";
import { parseWorldFile } from "@cwp/emulator";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Rehearsal, rehearse } from "./rehearse-bundles.js";

// The example workflows as written, job by job, against an emulator seeded from the world file
// that matches them (examples/world.yaml): our steps run their committed bundles, GitHub is the
// stand-in that checks every request against GitHub's description. Only the API URL changes.

const root = fileURLToPath(new URL("../../", import.meta.url));
const workflow = (name: string) => `${root}examples/workflows/${name}`;
const GITHUB_TOKEN = "ghs_examples_workflow_token";
/** A commit the stand-in knows (branch feature/checkout's head). */
const HEAD_SHA = "89abcdef0123456789abcdef0123456789abcdef";

let platform: TestPlatform;
let github: StandIn;
beforeAll(async () => {
  const world = parseWorldFile(await readFile(`${root}examples/world.yaml`, "utf8"));
  // Virtual time runs 300 times faster, from six hours back: the platform's clock stays behind the
  // runner's for the whole file, as a real platform's is about the same (a step refuses times to come).
  platform = await startTestPlatform({ speed: 300, world, startAt: Date.now() - 6 * 3_600_000 });
  github = await startGitHubStandIn(GITHUB_TOKEN);
});
afterAll(async () => {
  await platform.close();
  await github.close();
});
beforeEach(async () => {
  await platform.reset();
  github.deployments.splice(0);
  github.issues.splice(0);
  github.comments.splice(0);
});
afterEach(() => {
  // Every request a step made is one GitHub would take.
  expect(github.violations.splice(0)).toEqual([]);
});

const run = (
  r: Omit<Rehearsal, "actionsDir" | "replace" | "env" | "token"> & { scriptEnv?: Record<string, string> },
) =>
  rehearse({
    ...r,
    secrets: { CWP_API_TOKEN: platform.tokens.org, ...r.secrets },
    actionsDir: `${root}actions`,
    replace: { "https://api.example.com": platform.url },
    env: { GITHUB_API_URL: github.url, ...r.scriptEnv },
    token: GITHUB_TOKEN,
  });
const failures = (job: Awaited<ReturnType<typeof rehearse>>) =>
  job.steps
    .filter((s) => s.result && s.result.code !== 0)
    .map(
      (s) =>
        `${s.name}: ${s.result?.stdout
          .split("\n")
          .filter((l) => l.startsWith("::error"))
          .join(" ")}`,
    );
/** A template's runs, each as its own read has it: the list carries summaries, without arguments. */
async function templateRuns(template: string) {
  const read = async <T>(path: string) =>
    (
      (await (
        await fetch(`${platform.url}${path}`, { headers: { authorization: `Bearer ${platform.tokens.org}` } })
      ).json()) as { data: T }
    ).data;
  const { templateRuns: listed } = await read<{ templateRuns: Array<{ id: string }> }>(
    `/v1/templates/${template}/runs`,
  );
  return Promise.all(
    listed.map((r) =>
      read<{ arguments: Record<string, unknown>; status: string }>(`/v1/templates/${template}/runs/${r.id}`),
    ),
  );
}

/** A push of the head commit to `ref` (a branch or a tag). */
const push = (ref: string) => ({ name: "push", sha: HEAD_SHA, ref, payload: { ref, after: HEAD_SHA } });
const SCHEDULE = { name: "schedule", sha: HEAD_SHA, ref: "refs/heads/main", payload: {} };

function pullRequest(number: number, action: string, fork = false) {
  return {
    name: "pull_request",
    sha: HEAD_SHA,
    ref: `refs/pull/${number}/merge`,
    payload: {
      action,
      number,
      pull_request: {
        number,
        head: {
          sha: HEAD_SHA,
          ref: "feature/checkout",
          repo: { full_name: fork ? "someone/shop" : "acme/shop" },
        },
        base: { ref: "main", repo: { full_name: "acme/shop" } },
      },
      repository: { full_name: "acme/shop" },
    },
  };
}

describe("examples/workflows/preview-per-pull-request.yml", () => {
  const preview = workflow("preview-per-pull-request.yml");

  it("gives two open pull requests a preview each, keyed by number, each recorded as its own deployment", async () => {
    for (const number of [42, 43]) {
      const event = pullRequest(number, "opened");
      const deploy = await run({ workflow: preview, job: "deploy", event });
      expect(deploy.ran).toBe(true);
      expect(failures(deploy)).toEqual([]);
      expect((await run({ workflow: preview, job: "teardown", event })).ran).toBe(false);
      expect((await run({ workflow: preview, job: "fork", event })).ran).toBe(false);
    }
    const runs = await templateRuns("preview-env");
    expect(
      runs
        .map((r) => r.arguments)
        .sort((a, b) => String(a["pull-request"]).localeCompare(String(b["pull-request"]))),
    ).toEqual([
      { "pull-request": "42", sha: HEAD_SHA },
      { "pull-request": "43", sha: HEAD_SHA },
    ]);
    expect(runs.every((r) => r.status === "success")).toBe(true);
    const byEnvironment = new Map(github.deployments.map((d) => [d.environment, d]));
    expect([...byEnvironment.keys()].sort()).toEqual(["pr-42", "pr-43"]);
    expect(latestState(byEnvironment.get("pr-42") ?? github.deployments[0]!)).toBe("success");
    expect(github.violations).toEqual([]);
  });

  it("tears down the closed pull request's preview with the same number, and marks its deployments inactive", async () => {
    await run({ workflow: preview, job: "deploy", event: pullRequest(42, "opened") });
    const closed = pullRequest(42, "closed");
    expect((await run({ workflow: preview, job: "deploy", event: closed })).ran).toBe(false);
    const teardown = await run({ workflow: preview, job: "teardown", event: closed });
    expect(teardown.ran).toBe(true);
    expect(failures(teardown)).toEqual([]);
    expect((await templateRuns("preview-teardown")).map((r) => [r.arguments, r.status])).toEqual([
      [{ "pull-request": "42" }, "success"],
    ]);
    const pr42 = github.deployments.filter((d) => d.environment === "pr-42");
    expect(pr42.length).toBeGreaterThan(0);
    expect(pr42.every((d) => latestState(d) === "inactive")).toBe(true);
    expect(github.violations).toEqual([]);
  });

  it("skips a fork's pull request with a notice, never a red run: no template runs, no GitHub request", async () => {
    const event = pullRequest(44, "opened", true);
    expect((await run({ workflow: preview, job: "deploy", event })).ran).toBe(false);
    expect(
      (await run({ workflow: preview, job: "teardown", event: pullRequest(44, "closed", true) })).ran,
    ).toBe(false);
    const notice = await run({ workflow: preview, job: "fork", event });
    expect(notice.ran).toBe(true);
    expect(notice.success).toBe(true);
    expect(notice.steps.map((s) => s.kind)).toEqual(["read"]);
    expect(await templateRuns("preview-env")).toEqual([]);
    expect(github.deployments).toEqual([]);
  });
});

describe("examples/workflows/nightly-restore-and-verify.yml", () => {
  const nightly = workflow("nightly-restore-and-verify.yml");

  it("restores the backup of the variable into staging, restarts, and reads the logs from the restart on", async () => {
    const job = await run({
      workflow: nightly,
      job: "restore",
      event: SCHEDULE,
      vars: { STAGING_BACKUP_ID: "nightly-golden" },
    });
    expect(failures(job)).toEqual([]);
    expect(job.steps.map((s) => [s.id ?? s.name, s.kind])).toEqual([
      ["restore", "ran"],
      ["restart", "ran"],
      ["logs", "ran"],
      ["actions/upload-artifact@v4", "read"],
    ]);
    const [restore, restart, logs, upload] = job.steps;
    expect(restore?.result?.outputs.status).toBe("completed");
    const restartedAt = restart?.result?.outputs["restarted-at"] ?? "";
    expect(restartedAt).toMatch(/^\d{4}-/);
    // The verify step reads from the restart on: its start-time is restarted-at, as given.
    expect(logs?.inputs?.["start-time"]).toBe(restartedAt);
    expect(Number(logs?.result?.outputs.lines)).toBeGreaterThan(0);
    expect(Date.parse(logs?.result?.outputs["first-timestamp"] ?? "")).toBeGreaterThanOrEqual(
      Date.parse(restartedAt),
    );
    expect(upload?.inputs?.path).toBe(logs?.result?.outputs.file);
  });

  it("says clearly when the variable names no backup, before anything starts", async () => {
    const job = await run({ workflow: nightly, job: "restore", event: SCHEDULE, vars: {} });
    expect(job.success).toBe(false);
    expect(job.steps[0]?.result?.stdout).toMatch(/::error::.*backup-id/);
    // The verify steps are skipped after a failure; only the artifact step (always()) is read, and
    // its condition sees no file.
    expect(job.steps.map((s) => s.kind)).toEqual(["ran", "skipped", "skipped", "skipped"]);
    const posts = (await platform.requests()).filter((r) => r.method === "POST");
    expect(posts).toEqual([]);
  });
});

describe("examples/workflows/deploy-production.yml", () => {
  it("migrates on the commit built by image-builder before web, which may roll out, is built", async () => {
    const job = await run({
      workflow: workflow("deploy-production.yml"),
      job: "deploy",
      event: push("refs/heads/main"),
    });
    expect(failures(job)).toEqual([]);
    const starts = (await platform.requests()).filter((r) => r.method === "POST").map((r) => r.path);
    expect(starts).toEqual([
      "/v1/projects/shop/services/image-builder/build",
      "/v1/projects/shop/jobs/migrate/runs",
      "/v1/projects/shop/services/web/build",
    ]);
    expect(github.deployments.map((d) => [d.environment, latestState(d)])).toEqual([
      ["production", "success"],
    ]);
  });
});

describe("examples/workflows/build-on-push.yml", () => {
  it("builds every push on the build service, and skips a fork's pull request", async () => {
    const job = await run({
      workflow: workflow("build-on-push.yml"),
      job: "build",
      event: push("refs/heads/feature/checkout"),
      secrets: { NPM_TOKEN: "npm_secret_token" },
    });
    expect(failures(job)).toEqual([]);
    expect((await platform.requests()).filter((r) => r.method === "POST").map((r) => r.path)).toEqual([
      "/v1/projects/shop/services/image-builder/build",
    ]);
    // The build argument's secret is masked wherever the step printed it.
    const result = job.steps[0]?.result;
    expect(result && leakedSecrets(result, ["npm_secret_token"])).toEqual([]);
    expect(result?.stdout).toContain("::add-mask::npm_secret_token");
    const fork = await run({
      workflow: workflow("build-on-push.yml"),
      job: "build",
      event: pullRequest(45, "opened", true),
    });
    expect(fork.ran).toBe(false);
  });
});

describe("examples/workflows/release-gated-on-template.yml", () => {
  it("runs the release template with the tag, and hands the run id to the publishing step", async () => {
    const job = await run({
      workflow: workflow("release-gated-on-template.yml"),
      job: "release",
      event: push("refs/tags/v1.4.0"),
    });
    expect(failures(job)).toEqual([]);
    expect((await templateRuns("release")).map((r) => [r.arguments, r.status])).toEqual([
      [{ version: "v1.4.0", environment: "production" }, "success"],
    ]);
    const [gate, publish] = job.steps;
    expect(publish?.kind).toBe("read");
    expect(publish?.env?.RUN_ID).toBe(gate?.result?.outputs["run-id"]);
  });

  it("publishes nothing when the template run fails", async () => {
    await platform.control("POST", "outcomes", { kind: "templateRun", succeed: false, durationSeconds: 30 });
    const job = await run({
      workflow: workflow("release-gated-on-template.yml"),
      job: "release",
      event: push("refs/tags/v1.4.1"),
    });
    expect(job.success).toBe(false);
    expect(job.steps.map((s) => s.kind)).toEqual(["ran", "skipped"]);
  });
});

describe("the cost report examples", () => {
  it("weekly-cost-report.yml: keeps last week's report in one issue, updated in place by the next run", async () => {
    for (const _week of [1, 2]) {
      const job = await run({ workflow: workflow("weekly-cost-report.yml"), job: "report", event: SCHEDULE });
      expect(failures(job)).toEqual([]);
      expect(job.steps[1]?.inputs?.path).toBe(job.steps[0]?.result?.outputs["report-dir"]);
    }
    expect(github.issues.map((i) => [i.title, i.labels])).toEqual([
      ["Weekly platform costs", ["cost-report"]],
    ]);
  });

  it("daily-focus-export.yml: this month's FOCUS dataset in its billing period's folder, handed to the upload steps, which a repository without the variables skips", async () => {
    // The range script runs (bash, as --run-shell runs it), and `aws` is a stand-in that says what it got.
    const bin = await mkdtemp(join(tmpdir(), "cwp-aws-"));
    await writeFile(join(bin, "aws"), '#!/bin/sh\necho "aws $*" >> "$AWS_CALLS"\n', { mode: 0o755 });
    const calls = join(bin, "calls.txt");
    const env = { PATH: `${bin}:${process.env.PATH}`, AWS_CALLS: calls };
    const job = await run({
      workflow: workflow("daily-focus-export.yml"),
      job: "export",
      event: SCHEDULE,
      runScripts: true,
      scriptEnv: env,
    });
    expect(failures(job)).toEqual([]);
    expect(job.steps.map((s) => [s.id ?? s.name, s.kind])).toEqual([
      ["range", "script"],
      ["focus", "ran"],
      ["aws-actions/configure-aws-credentials@v4", "skipped"],
      ["Replace the periods' folders in S3", "skipped"],
      ["google-github-actions/auth@v2", "skipped"],
      ["google-github-actions/setup-gcloud@v2", "skipped"],
      ["Replace the periods' folders in Cloud Storage", "skipped"],
    ]);
    // The dataset's folder, in the runner's temp folder (gone with the job: the steps after upload it).
    expect(job.steps[1]?.result?.outputs["report-dir"]).toMatch(/cwp-usage-report$/);
    // Last month's first day to now: the range the script computed, as on GitHub, by its dates to
    // the last whole hour; in a day's first hour that hour ends at midnight, and the range is whole
    // days, to the day before; in a month's first hour (no hour of the new month has ended), last
    // month by its name.
    const range = job.steps[1]?.inputs ?? {};
    expect(range.start).toMatch(/^\d{4}-\d\d-01$/);
    const dayBefore = new Date(Date.parse(`${range.end}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect(job.steps[1]?.result?.stdout).toMatch(
      new RegExp(
        `Spent [\\d,.]+ USD in (${range.start} to (${range.end} \\d\\d:00 UTC|${dayBefore})|[A-Z][a-z]+ \\d{4}) \\(so far\\)`,
      ),
    );
    // With a bucket named, the S3 step syncs each period's folder the export wrote.
    const s3 = await run({
      workflow: workflow("daily-focus-export.yml"),
      job: "export",
      event: SCHEDULE,
      vars: { FOCUS_S3_BUCKET: "acme-finops" },
      runScripts: true,
      scriptEnv: env,
    });
    const sync = s3.steps.find((s) => s.name === "Replace the periods' folders in S3");
    expect(sync?.kind).toBe("script");
    const dir = s3.steps[1]?.result?.outputs["report-dir"];
    expect(sync?.env?.REPORT_DIR).toBe(dir);
    const synced = (await readFile(calls, "utf8")).trim().split("\n");
    expect(synced.length).toBeGreaterThan(0);
    for (const line of synced)
      expect(line).toMatch(
        new RegExp(
          `^aws s3 sync ${dir}/focus/billing_period=\\d{4}-\\d\\d/ s3://acme-finops/focus/billing_period=\\d{4}-\\d\\d/ --delete$`,
        ),
      );
  });

  it("cost-report-on-pull-requests.yml: one comment on the pull request; a fork's pull request is skipped, not red", async () => {
    const job = await run({
      workflow: workflow("cost-report-on-pull-requests.yml"),
      job: "costs",
      event: pullRequest(46, "opened"),
    });
    // Over budget or not, the comment is made; the step fails only over budget.
    expect(github.comments.map((c) => c.issue)).toEqual([46]);
    const total = Number(job.steps[0]?.result?.outputs.total);
    expect(job.success).toBe(total <= 2500);
    const fork = await run({
      workflow: workflow("cost-report-on-pull-requests.yml"),
      job: "costs",
      event: pullRequest(47, "opened", true),
    });
    expect(fork.ran).toBe(false);
  });
});
