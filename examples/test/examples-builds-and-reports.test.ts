import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { latestState, leakedSecrets } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import {
  failures,
  github,
  platform,
  pullRequest,
  push,
  run,
  SCHEDULE,
  templateRuns,
  useExamples,
  workflow,
} from "./examples-harness.js";

useExamples();

// The example workflows that build on a push, release on a tag and report costs
// (examples-harness.ts runs them; pull requests and restores: examples.test.ts).

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
