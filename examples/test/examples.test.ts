import { latestState } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import {
  failures,
  github,
  HEAD_SHA,
  platform,
  pullRequest,
  run,
  SCHEDULE,
  templateRuns,
  useExamples,
  workflow,
} from "./examples-harness.js";

useExamples();

// The example workflows that answer pull requests and schedules (examples-harness.ts runs them;
// pushes, tags and the cost reports: examples-builds-and-reports.test.ts).

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
