import { createClient } from "@cwp/client";
import { describe, expect, it } from "vitest";
import { useEmulator } from "../helpers.js";

// Spec 3 and beyond-the-seed §1: work moves through its states as the virtual clock advances.

const emu = useEmulator({ speed: 0 });
const P = "/v1/projects/platform-web";
const client = () => createClient({ baseUrl: emu.url, token: emu.fixtures.tokens.org });

describe("builds (3.6)", () => {
  it("start PENDING, not concluded, then pass through statuses to SUCCESS with logs", async () => {
    const start = await emu.api("POST", `${P}/services/web/build`, { body: { branch: "main" } });
    expect(start.body.data).toMatchObject({
      status: "PENDING",
      concluded: false,
      branch: "main",
      pullRequestId: null,
    });
    expect(start.body.data.sha).toMatch(/^[0-9a-f]{40}$/);
    const id = start.body.data.id as string;
    expect(id).toMatch(/^[a-z]+-[a-z]+-\d{4}$/);
    const seen: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      await emu.advance(10);
      seen.push((await emu.api("GET", `${P}/services/web/build/${id}`)).body.data.status);
    }
    expect(seen).toContain("BUILDING");
    const done = (await emu.api("GET", `${P}/services/web/build/${id}`)).body.data;
    expect(done).toMatchObject({
      status: "SUCCESS",
      concluded: true,
      success: true,
      message: "Image successfully built",
    });
    expect(typeof done.buildConcludedAt).toBe("number");
    expect(done.registry.uri).toContain(done.sha.slice(0, 12));
    const logs = await emu.api("GET", `${P}/services/web/build-logs`, {
      query: { buildId: id, direction: "forward" },
    });
    expect(logs.body.data.map((l: { log: string }) => l.log).at(-1)).toMatch(/^Pushing image/);
    const service = (await emu.api("GET", `${P}/services/web`)).body.data;
    expect(service.status.build.status).toBe("SUCCESS");
  });

  it("follow a scripted outcome, and the client's waiter sees the conclusion", async () => {
    await emu.control("POST", "outcomes", { kind: "build", succeed: false, durationSeconds: 5 });
    const c = client();
    const build = await c.builds.start("platform-web", "web", { pullRequestId: 42 });
    expect(build.pullRequestId).toBe(42);
    await emu.advance(6);
    const done = await c.builds.waitFor("platform-web", "web", build.id, { timeoutMs: 5000 });
    expect(done).toMatchObject({ status: "FAILURE", concluded: true, success: false });
    await c.close();
  });

  it("abort to ABORTED; aborting a concluded build is a 409; deployment services do not build", async () => {
    const id = (await emu.api("POST", `${P}/services/web/build`, { body: { branch: "main" } })).body.data.id;
    await emu.advance(5);
    expect((await emu.api("DELETE", `${P}/services/web/build/${id}`)).status).toBe(200);
    expect((await emu.api("GET", `${P}/services/web/build/${id}`)).body.data).toMatchObject({
      status: "ABORTED",
      concluded: true,
      success: false,
    });
    expect((await emu.api("DELETE", `${P}/services/web/build/${id}`)).status).toBe(409);
    expect((await emu.api("POST", `${P}/services/gateway/build`, { body: { branch: "main" } })).status).toBe(
      409,
    );
  });
});

describe("job runs", () => {
  it("run RUNNING then SUCCESS with logs naming variables but never their values", async () => {
    const start = await emu.api("POST", `${P}/jobs/migrate/runs`, {
      body: { runtimeEnvironment: { "DB-PASSWORD": "hunter2" } },
    });
    const { id, runName } = start.body.data;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(runName).toMatch(/^migrate-/);
    expect((await emu.api("GET", `${P}/jobs/migrate/runs/${id}`)).body.data).toMatchObject({
      status: "RUNNING",
      concluded: false,
      active: 1,
    });
    await emu.advance(31);
    expect((await emu.api("GET", `${P}/jobs/migrate/runs/${id}`)).body.data).toMatchObject({
      status: "SUCCESS",
      concluded: true,
      succeeded: 1,
    });
    const logs = await emu.api("GET", `${P}/jobs/migrate/logs`, { query: { runId: id } });
    const text = JSON.stringify(logs.body.data);
    expect(text).toContain("DB-PASSWORD");
    expect(text).not.toContain("hunter2");
  });

  it("end FAILED and concluded when aborted", async () => {
    const { id } = (await emu.api("POST", `${P}/jobs/migrate/runs`, { body: {} })).body.data;
    await emu.api("DELETE", `${P}/jobs/migrate/runs/${id}`);
    expect((await emu.api("GET", `${P}/jobs/migrate/runs/${id}`)).body.data).toMatchObject({
      status: "FAILED",
      concluded: true,
    });
  });
});

describe("job resume (3.7)", () => {
  it("resumes a paused job, then answers 409 because it is no longer paused", async () => {
    expect((await emu.api("POST", `${P}/jobs/nightly-report/resume`, { body: {} })).status).toBe(200);
    const again = await emu.api("POST", `${P}/jobs/nightly-report/resume`, { body: {} });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/not paused/);
    expect((await emu.api("POST", `${P}/jobs/migrate/resume`, { body: {} })).status).toBe(409);
  });
});

describe("template runs (2.5, 3.4)", () => {
  it("carry spec, status and concluded from pending to success", async () => {
    const run = (
      await emu.api("POST", "/v1/templates/release/runs", { body: { arguments: { version: "2.0.0" } } })
    ).body.data;
    expect(run).toMatchObject({
      templateId: "release",
      apiVersion: "v1.2",
      status: "pending",
      concluded: false,
      arguments: { version: "2.0.0" },
    });
    expect(run.spec.response.status).toBe("pending");
    await emu.advance(20);
    expect((await emu.api("GET", `/v1/templates/release/runs/${run.id}`)).body.data.status).toBe("running");
    await emu.advance(25);
    const done = (await emu.api("GET", `/v1/templates/release/runs/${run.id}`)).body.data;
    expect(done).toMatchObject({ status: "success", concluded: true });
    expect(done.spec.response.endTime).toBeDefined();
    const concluded = await emu.api("GET", "/v1/templates/release/runs", { query: { concluded: true } });
    expect(concluded.body.data.templateRuns.map((r: { id: string }) => r.id)).toEqual([run.id]);
    // A list item is a summary, as the platform's: no gitops, spec or arguments, but what names
    // and places the run (the vendor's own client lists runs by name and apiVersion).
    const [item] = concluded.body.data.templateRuns;
    expect(item).toMatchObject({
      id: run.id,
      templateId: "release",
      name: run.name,
      apiVersion: "v1.2",
      status: "success",
      concluded: true,
      createdAt: run.createdAt,
    });
    expect(item.updatedAt).toEqual(expect.any(String));
    expect(item).not.toHaveProperty("gitops");
    expect(item).not.toHaveProperty("spec");
    expect(item).not.toHaveProperty("arguments");
  });

  it("a failure scripted with a message carries it in the run's answer", async () => {
    const outcome = { kind: "templateRun", succeed: false, durationSeconds: 5, message: "quota exceeded" };
    expect((await emu.control("POST", "outcomes", outcome)).status).toBe(200);
    const run = (await emu.api("POST", "/v1/templates/release/runs", { body: { arguments: {} } })).body.data;
    await emu.advance(10);
    const done = (await emu.api("GET", `/v1/templates/release/runs/${run.id}`)).body.data;
    expect(done).toMatchObject({ status: "failure", concluded: true, message: "quota exceeded" });
  });

  it("abort through aborting to aborted", async () => {
    const run = (await emu.api("POST", "/v1/templates/release/runs", { body: { arguments: {} } })).body.data;
    const aborting = await emu.api("POST", `/v1/templates/release/runs/${run.id}/abort`);
    expect(aborting.body.data).toMatchObject({ status: "aborting", concluded: false });
    await emu.advance(3);
    expect((await emu.api("GET", `/v1/templates/release/runs/${run.id}`)).body.data).toMatchObject({
      status: "aborted",
      concluded: true,
    });
  });
});

describe("addon upgrades", () => {
  it("show upgrading, then running at the new version; busy addons refuse another operation", async () => {
    await emu.api("POST", `${P}/addons/db/version`, { body: { version: "17.0" } });
    const during = (await emu.api("GET", `${P}/addons/db`)).body.data;
    expect(during.status).toBe("upgrading");
    expect(during.spec.config.versionTag).toBe("16.4");
    expect((await emu.api("POST", `${P}/addons/db/version`, { body: { version: "15.7" } })).status).toBe(409);
    await emu.advance(21);
    const after = (await emu.api("GET", `${P}/addons/db`)).body.data;
    expect(after).toMatchObject({ status: "running", spec: { config: { versionTag: "17.0" } } });
  });

  it("end failed when scripted to", async () => {
    await emu.control("POST", "outcomes", { kind: "addonUpgrade", succeed: false });
    await emu.api("POST", `${P}/addons/db/version`, { body: { version: "17.0" } });
    await emu.advance(21);
    expect((await emu.api("GET", `${P}/addons/db`)).body.data).toMatchObject({
      status: "failed",
      spec: { config: { versionTag: "16.4" } },
    });
  });
});

describe("backup restores", () => {
  it("go scheduled → in-progress → completed, with lastRestore, and a snapshot restores its version", async () => {
    const { restoreId } = (await emu.api("POST", `${P}/addons/db/backups/db-snapshot-1/restore`)).body.data;
    await emu.advance(3);
    expect((await emu.api("GET", `${P}/addons/db`)).body.data.status).toBe("restore");
    const list = await emu.api("GET", `${P}/addons/db/backups/db-snapshot-1/restores`);
    expect(list.body.data.restores[0]).toMatchObject({ id: restoreId, status: "in-progress" });
    await emu.advance(30);
    const backup = (await emu.api("GET", `${P}/addons/db/backups/db-snapshot-1`)).body.data;
    expect(backup.lastRestore).toMatchObject({ status: "completed" });
    expect((await emu.api("GET", `${P}/addons/db`)).body.data.spec.config.versionTag).toBe("15.7");
  });

  it("refuse backups that are not completed, and restore a global backup from another project", async () => {
    expect((await emu.api("POST", `${P}/addons/db/backups/db-failed-1/restore`)).status).toBe(409);
    const global = await emu.api("POST", `${P}/addons/db/backups/db-snapshot-1/restore`, {
      query: { sourceProjectId: "platform-api", sourceAddonId: "db" },
    });
    expect(global.status).toBe(200);
    const list = await emu.api("GET", `${P}/addons/db/backups/db-snapshot-1/restores`);
    expect(list.body.data.restores.map((r: { id: string }) => r.id)).toContain(global.body.data.restoreId);
  });
});

describe("service restarts", () => {
  it("show the previous COMPLETED at first, then IN_PROGRESS, then COMPLETED with a later transition", async () => {
    const before = (await emu.api("GET", `${P}/services/web`)).body.data.status.deployment;
    const restart = await emu.api("POST", `${P}/services/web/restart`);
    const requestedAt = Date.parse(restart.headers.get("date") ?? "");
    expect((await emu.api("GET", `${P}/services/web`)).body.data.status.deployment).toEqual(before);
    await emu.advance(2);
    expect((await emu.api("GET", `${P}/services/web`)).body.data.status.deployment.status).toBe(
      "IN_PROGRESS",
    );
    await emu.advance(15);
    const after = (await emu.api("GET", `${P}/services/web`)).body.data.status.deployment;
    expect(after.status).toBe("COMPLETED");
    expect(Date.parse(after.lastTransitionTime)).toBeGreaterThan(requestedAt);
  });

  it("can fail, and a build service has nothing to restart", async () => {
    await emu.control("POST", "outcomes", { kind: "restart", succeed: false });
    await emu.api("POST", `${P}/services/web/restart`);
    await emu.advance(20);
    expect((await emu.api("GET", `${P}/services/web`)).body.data.status.deployment.status).toBe("FAILED");
    expect((await emu.api("POST", `${P}/services/image-builder/restart`)).status).toBe(409);
  });

  it("refuse a harness with active sessions unless acknowledged", async () => {
    expect((await emu.api("POST", `${P}/harnesses/devbox/restart`)).status).toBe(409);
    expect(
      (await emu.api("POST", `${P}/harnesses/devbox/restart`, { query: { acknowledgeActiveSessions: true } }))
        .status,
    ).toBe(200);
  });
});
