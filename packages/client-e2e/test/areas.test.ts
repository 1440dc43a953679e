import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionError,
  RequestValidationError,
} from "@cwp/client";
import { describe, expect, it } from "vitest";
import { collect, useEmulatedClient } from "./emulated-client.js";

// Every area of the client against the emulator: what a call returns parses, what it sends is
// what the platform takes, and its errors come back typed.

const e = useEmulatedClient();
const P = "platform-web";

describe("teams and projects", () => {
  it("iterates every project over small cursor pages, and the team twin narrows them", async () => {
    const all = await collect(e.client().projects.iterate({ per_page: 2 }));
    expect(all.map((p) => p.id).sort()).toEqual(e.fixtures.projects.map((p: { id: string }) => p.id).sort());
    const platform = await collect(e.client({ teamId: "platform" }).projects.iterate());
    expect(platform.map((p) => p.id).sort()).toEqual(["platform-api", "platform-batch", "platform-web"]);
    expect((await collect(e.client().teams.iterate())).map((t) => t.id)).toEqual([
      "platform",
      "data",
      "labs",
    ]);
    expect(await e.client().projects.getPipeline(P, "main")).toBeTypeOf("object");
  });
});

describe("builds and services", () => {
  it("starts a build, finds it in the list, reads it and aborts it", async () => {
    const c = e.client();
    const started = await c.builds.start(P, "web", { branch: "main" });
    expect(started).toMatchObject({ status: "PENDING", concluded: false, branch: "main" });
    const { items } = await c.builds.list(P, "web");
    expect(items.map((b) => b.id)).toContain(started.id);
    await c.builds.abort(P, "web", started.id);
    expect(await c.builds.get(P, "web", started.id)).toMatchObject({ status: "ABORTED", concluded: true });
    await expect(c.builds.abort(P, "web", started.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it("reads a service's deployment status and its build arguments", async () => {
    const c = e.client();
    const service = await c.services.get(P, "web");
    expect(service.status?.deployment?.status).toBe("COMPLETED");
    expect(await c.builds.getBuildArguments(P, "web")).toHaveProperty("buildArguments");
  });
});

describe("jobs", () => {
  it("runs a job with an environment, lists and aborts the run; resumes only a paused job", async () => {
    const c = e.client();
    const run = await c.jobs.run(P, "migrate", { runtimeEnvironment: { LEVEL: "debug" } });
    expect((await c.jobs.getRun(P, "migrate", run.id)).status).toBe("RUNNING");
    expect((await c.jobs.listRuns(P, "migrate")).items.map((r) => r.id)).toContain(run.id);
    await c.jobs.abortRun(P, "migrate", run.id);
    expect(await c.jobs.getRun(P, "migrate", run.id)).toMatchObject({ status: "FAILED", concluded: true });
    await c.jobs.resume(P, "nightly-report");
    await expect(c.jobs.resume(P, "migrate")).rejects.toBeInstanceOf(ConflictError);
    await c.jobs.setRuntimeEnvironment(P, "migrate", { runtimeEnvironment: { LEVEL: "info" } });
    expect(await c.jobs.getHealthChecks(P, "migrate")).toBeDefined();
  });
});

describe("templates", () => {
  it("runs a template with arguments, lists the run and aborts it", async () => {
    const c = e.client();
    const run = await c.templates.run("release", { arguments: { version: "1.2.3" } });
    expect(run.concluded).toBe(false);
    expect((await c.templates.listRuns("release")).items.map((r) => r.id)).toContain(run.id);
    const aborting = await c.templates.abortRun("release", run.id);
    expect(aborting.status).toMatch(/^abort/);
  });
});

describe("addons, secrets, integrations, networking", () => {
  it("reads an addon and its backups, restores one and lists the restore", async () => {
    const c = e.client();
    expect((await c.addons.get(P, "db")).spec?.config?.versionTag).toBe("16.4");
    expect((await c.addons.getBackup(P, "db", "db-live-1")).status).toBe("completed");
    const { restoreId } = await c.addons.restoreBackup(P, "db", "db-live-1");
    expect((await c.addons.listRestores(P, "db", "db-live-1")).items.map((r) => r.id)).toContain(restoreId);
  });

  it("creates a secret group, links an addon, creates a notification and lists the rest", async () => {
    const c = e.client();
    const group = await c.secrets.create(P, {
      name: "app config",
      secretType: "environment",
      priority: 10,
      secrets: { variables: { "API-KEY": "s3cret", API_KEY: "s3cret", DATABASE_URL: "postgres://db" } },
    });
    expect(Object.keys(group.secrets?.variables ?? {}).sort()).toEqual([
      "API-KEY",
      "API_KEY",
      "DATABASE_URL",
    ]);
    await c.jobs.setRuntimeEnvironment(P, "migrate", {
      runtimeEnvironment: { DATABASE_URL: "postgres://db" },
    });
    await c.secrets.linkAddon(P, group.id, "db", { keys: [{ keyName: "host", aliases: ["DB_HOST"] }] });
    const hook = await c.integrations.createNotification({
      name: "deploys",
      type: "RAW_WEBHOOK",
      webhook: "http://127.0.0.1:9/hook",
      events: { "trigger:build:success": true },
    });
    expect(hook.id).toBeTruthy();
    expect((await c.integrations.listRegistries()).items).toBeInstanceOf(Array);
    expect((await c.networking.listSubdomainPaths("example.com", "api")).items).toBeInstanceOf(Array);
  });
});

describe("observability and billing", () => {
  it("reads logs and metrics", async () => {
    const c = e.client();
    expect((await c.observability.serviceLogs(P, "web", { lineLimit: 5 })).length).toBeLessThanOrEqual(5);
    expect(
      await c.observability.serviceMetrics(P, "web", { queryType: "single", metricTypes: ["cpu"] }),
    ).toBeDefined();
    expect(await c.observability.addonMetrics(P, "db", { queryType: "single" })).toBeDefined();
  });

  it("lists invoices and reads one, a usage total, and a credit balance only where the scope allows", async () => {
    const c = e.client();
    const invoices = await collect(c.billing.iterateInvoices());
    expect(invoices.length).toBeGreaterThanOrEqual(12);
    const first = invoices[0] as (typeof invoices)[number];
    expect((await c.billing.getInvoice(first.id)).data).toBeDefined();
    const endTime = Math.floor(e.time.now() / 1000);
    const total = await c.billing.listUsage({
      granularity: "total",
      startTime: endTime - 7 * 86_400,
      endTime,
    });
    expect(total.data.usage).toHaveLength(1);
    const labs = e.client({ token: e.fixtures.tokens.teamOwnBilling });
    expect(await labs.billing.getCreditBalance()).toBeDefined();
    const viaOrg = e.client({ token: e.fixtures.tokens.teamViaOrg });
    await expect(viaOrg.billing.getCreditBalance()).rejects.toBeInstanceOf(PermissionError);
  });
});

describe("errors", () => {
  it("types the platform's refusals, and refuses bad input before sending it", async () => {
    await expect(e.client().projects.getPipeline("nope", "main")).rejects.toBeInstanceOf(NotFoundError);
    await expect(e.client({ token: "cwp_unknown" }).projects.list()).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    const readOnly = e.client({ token: e.fixtures.tokens.readOnly });
    await expect(readOnly.builds.start(P, "web", { branch: "main" })).rejects.toBeInstanceOf(PermissionError);
    await e.control("DELETE", "requests");
    // biome-ignore lint/suspicious/noExplicitAny: a call a typed caller could not write.
    const bad = e.client().jobs.run(P, "migrate", { runtimeEnvironment: { "BAD KEY": "x" } } as any);
    await expect(bad).rejects.toBeInstanceOf(RequestValidationError);
    expect(await e.requests()).toEqual([]);
  });
});
