import { describe, expect, it } from "vitest";
import type { CwpClient } from "../src/index.js";
import { useScriptedPlatform } from "./helpers/scripted-server.js";

// Every operation of the client against answers a live platform may send that the spec does not
// show: only what the steps read, null for every other member, and members and values nobody
// announced. Response reading is tolerant; only what code reads is checked.

const t = useScriptedPlatform();

type Json = Record<string, unknown>;

interface Case {
  name: string;
  method: string;
  path: string;
  call(client: CwpClient): Promise<unknown>;
  /** A whole answer's `data` (or, for a list, one item), as the spec describes it. */
  full: Json;
  /** The members a step or caller reads: all that is left in the minimal answer. */
  read: string[];
  /** For a list: the member holding its items. */
  list?: string;
  /** The member holding a status from a closed list in the spec, given an unlisted one. */
  status?: string;
}

const SHA = "a".repeat(40);
const UID = "0123456789abcdef01234567";
const AT = "2026-11-21T10:00:00Z";
const templateRun = {
  id: "tr-1",
  templateId: "release",
  name: "release",
  description: "Release",
  apiVersion: "v1.2",
  options: { autorun: false, concurrencyPolicy: "allow" },
  arguments: {},
  gitops: { vcsService: "github", repoUrl: "github.com/acme/ops", branch: "main", filePath: "/t.yaml" },
  spec: { kind: "Workflow" },
  status: "running",
  concluded: false,
  createdAt: AT,
  updatedAt: AT,
};
const build = {
  id: "joyous-view-6290",
  branch: "main",
  pullRequestId: null,
  sha: SHA,
  registry: { uri: "registry.example/app:1" },
  createdAt: AT,
  status: "BUILDING",
  concluded: false,
  success: false,
  message: "building",
  buildConcludedAt: 1_790_000_000,
};
const jobRun = {
  id: "r-1",
  runName: "migrate-1",
  status: "RUNNING",
  concluded: false,
  startedAt: AT,
  concludedAt: AT,
  active: 1,
  succeeded: 0,
  failed: 0,
  backoffLimit: 0,
  completions: 1,
};
const addon = {
  id: "db",
  uid: UID,
  name: "db",
  appId: "acme/db",
  stageId: "prod",
  tags: ["tag"],
  description: "db",
  createdAt: AT,
  status: "running",
  spec: { type: "postgres", config: { versionTag: "16.4" }, pendingActions: [] },
  cluster: { id: "c1", name: "c1", namespace: "ns", loadBalancers: [] },
};
const backup = {
  id: "b1",
  name: "b1",
  uid: UID,
  status: "completed",
  createdAt: AT,
  completedAt: AT,
  config: { source: { type: "snapshot" }, size: "1024", addonVersion: "16.4" },
  lastRestore: { restoreTimestamp: AT, status: "completed", completedAt: AT },
};
const logLine = { containerId: "c-1", log: "hello", ts: AT };

const price = { total: 1.25, cpu: 0.5, memory: 0.5, storage: 0.25, gpu: 0 };
const usage = { vcpuHours: 1, memoryGibHours: 2, storageGibHours: 3, gpuHours: 0 };
const paas = { price, usage, teams: [{ id: UID, price, usage, projects: [{ id: UID, price, usage }] }] };
const invoice = {
  id: "in_1",
  status: "paid",
  currency: "USD",
  periodStart: AT,
  periodEnd: AT,
  total: 10,
  tax: 1,
  discount: 0,
  scope: {},
};
const usageEntry = { paas, total: 1.25, timestamp: 1_700_000_000, window: { start: AT, end: AT } };

const CASES: Case[] = [
  {
    name: "billing.listInvoices",
    method: "GET",
    path: "/v1/billing/invoices",
    call: (c) => c.billing.listInvoices(),
    full: invoice,
    read: ["id", "status"],
    list: "invoices",
    status: "status",
  },
  {
    name: "billing.getInvoice",
    method: "GET",
    path: "/v1/billing/invoices/in_1",
    call: (c) => c.billing.getInvoice("in_1").then((r) => r.data),
    full: { ...invoice, paas, total: 10 },
    read: ["id", "status", "paas", "total"],
    status: "status",
  },
  {
    name: "billing.listUsage",
    method: "GET",
    path: "/v1/billing/usage",
    call: (c) => c.billing.listUsage(),
    full: usageEntry,
    read: ["paas", "total"],
    list: "usage",
  },
  {
    name: "billing.getUsageHour",
    method: "GET",
    path: "/v1/billing/usage/1700000000",
    call: (c) => c.billing.getUsageHour(1_700_000_000).then((r) => r.data),
    full: { paas, total: 1.25, currency: "USD", timestamp: 1_700_000_000 },
    read: ["paas", "total"],
  },
  {
    name: "billing.getCreditBalance",
    method: "GET",
    path: "/v1/billing/credit-balance",
    call: (c) => c.billing.getCreditBalance(),
    full: {
      currency: "USD",
      total: { available: 1, pending: 0 },
      grants: { available: 1, pending: 0 },
      customerBalance: { amount: 0 },
      lastSyncedAt: AT,
    },
    read: ["currency", "total", "grants", "customerBalance", "lastSyncedAt"],
  },
  {
    name: "teams.list",
    method: "GET",
    path: "/v1/teams",
    call: (c) => c.teams.list(),
    full: { id: "t", uid: UID, name: "Team" },
    read: ["id", "uid"],
    list: "teams",
  },
  {
    name: "projects.list",
    method: "GET",
    path: "/v1/projects",
    call: (c) => c.projects.list(),
    full: { id: "p", uid: UID, name: "P", description: "d" },
    read: ["id", "uid"],
    list: "projects",
  },
  {
    name: "projects.getPipeline",
    method: "GET",
    path: "/v1/projects/p/pipelines/pl",
    call: (c) => c.projects.getPipeline("p", "pl"),
    full: {
      name: "pipe",
      description: "d",
      preview: {},
      stages: [],
      nfObjects: [{ id: "web", type: "service", stage: "Production" }],
    },
    read: [],
  },
  {
    name: "secrets.create",
    method: "POST",
    path: "/v1/projects/p/secrets",
    call: (c) => c.secrets.create("p", { name: "app", secretType: "environment", priority: 1 }),
    full: { id: "app", name: "app", secretType: "environment", priority: 1, createdAt: AT, updatedAt: AT },
    read: ["id"],
  },
  {
    name: "secrets.linkAddon",
    method: "POST",
    path: "/v1/projects/p/secrets/s/addons/a",
    call: (c) => c.secrets.linkAddon("p", "s", "a", { keys: [{ keyName: "HOST" }] }),
    full: { keys: [{ keyName: "HOST", aliases: [], defaultKey: "HOST" }] },
    read: ["keys"],
  },
  {
    name: "jobs.run",
    method: "POST",
    path: "/v1/projects/p/jobs/j/runs",
    call: (c) => c.jobs.run("p", "j", {}),
    full: { id: "r-1", runName: "migrate-1" },
    read: ["id"],
  },
  {
    name: "jobs.getRun",
    method: "GET",
    path: "/v1/projects/p/jobs/j/runs/r-1",
    call: (c) => c.jobs.getRun("p", "j", "r-1"),
    full: jobRun,
    read: ["id", "status", "concluded"],
    status: "status",
  },
  {
    name: "jobs.listRuns",
    method: "GET",
    path: "/v1/projects/p/jobs/j/runs",
    call: (c) => c.jobs.listRuns("p", "j"),
    full: jobRun,
    read: ["id", "status", "concluded"],
    list: "runs",
    status: "status",
  },
  {
    name: "jobs.resume",
    method: "POST",
    path: "/v1/projects/p/jobs/j/resume",
    call: (c) => c.jobs.resume("p", "j"),
    full: {},
    read: [],
  },
  {
    name: "jobs.setRuntimeEnvironment",
    method: "POST",
    path: "/v1/projects/p/jobs/j/runtime-environment",
    call: (c) => c.jobs.setRuntimeEnvironment("p", "j", { runtimeEnvironment: {} }),
    full: {},
    read: [],
  },
  {
    name: "jobs.getHealthChecks",
    method: "GET",
    path: "/v1/projects/p/jobs/j/health-checks",
    call: (c) => c.jobs.getHealthChecks("p", "j"),
    full: {
      healthChecks: [
        {
          protocol: "HTTP",
          type: "livenessProbe",
          path: "/",
          initialDelaySeconds: 1,
          periodSeconds: 1,
          timeoutSeconds: 1,
          failureThreshold: 1,
        },
      ],
    },
    read: ["healthChecks"],
  },
  {
    name: "jobs.logs",
    method: "GET",
    path: "/v1/projects/p/jobs/j/logs",
    call: (c) => c.jobs.logs("p", "j"),
    full: logLine,
    read: ["containerId", "log", "ts"],
    list: "",
  },
  {
    name: "builds.start",
    method: "POST",
    path: "/v1/projects/p/services/s/build",
    call: (c) => c.builds.start("p", "s", { branch: "main" }),
    full: build,
    read: ["id"],
    status: "status",
  },
  {
    name: "builds.get",
    method: "GET",
    path: "/v1/projects/p/services/s/build/b",
    call: (c) => c.builds.get("p", "s", "b"),
    full: build,
    read: ["id"],
    status: "status",
  },
  {
    name: "builds.list",
    method: "GET",
    path: "/v1/projects/p/services/s/build",
    call: (c) => c.builds.list("p", "s"),
    full: build,
    read: ["id"],
    list: "builds",
    status: "status",
  },
  {
    name: "builds.abort",
    method: "DELETE",
    path: "/v1/projects/p/services/s/build/b",
    call: (c) => c.builds.abort("p", "s", "b"),
    full: {},
    read: [],
  },
  {
    name: "builds.logs",
    method: "GET",
    path: "/v1/projects/p/services/s/build-logs",
    call: (c) => c.builds.logs("p", "s", { buildId: "b" }),
    full: logLine,
    read: ["containerId", "log", "ts"],
    list: "",
  },
  {
    name: "builds.getBuildArguments",
    method: "GET",
    path: "/v1/projects/p/services/s/build-arguments",
    call: (c) => c.builds.getBuildArguments("p", "s"),
    full: { buildArguments: {}, buildFiles: {} },
    read: ["buildArguments", "buildFiles"],
  },
  {
    name: "services.get",
    method: "GET",
    path: "/v1/projects/p/services/s",
    call: (c) => c.services.get("p", "s"),
    full: {
      id: "s",
      uid: UID,
      name: "web",
      status: {
        build: { status: "SUCCESS", lastTransitionTime: AT },
        deployment: { status: "COMPLETED", reason: "DEPLOYING", lastTransitionTime: AT },
      },
    },
    read: ["id"],
  },
  {
    name: "services.restart",
    method: "POST",
    path: "/v1/projects/p/services/s/restart",
    call: (c) => c.services.restart("p", "s"),
    full: {},
    read: [],
  },
  {
    name: "harnesses.restart",
    method: "POST",
    path: "/v1/projects/p/harnesses/h/restart",
    call: (c) => c.harnesses.restart("p", "h"),
    full: {},
    read: [],
  },
  {
    name: "addons.get",
    method: "GET",
    path: "/v1/projects/p/addons/a",
    call: (c) => c.addons.get("p", "a"),
    full: addon,
    read: ["id", "status"],
    status: "status",
  },
  {
    name: "addons.upgrade",
    method: "POST",
    path: "/v1/projects/p/addons/a/version",
    call: (c) => c.addons.upgrade("p", "a", "17"),
    full: {},
    read: [],
  },
  {
    name: "addons.getBackup",
    method: "GET",
    path: "/v1/projects/p/addons/a/backups/b",
    call: (c) => c.addons.getBackup("p", "a", "b"),
    full: backup,
    read: ["id", "status"],
    status: "status",
  },
  {
    name: "addons.restoreBackup",
    method: "POST",
    path: "/v1/projects/p/addons/a/backups/b/restore",
    call: (c) => c.addons.restoreBackup("p", "a", "b"),
    full: { restoreId: "r1" },
    read: ["restoreId"],
  },
  {
    name: "addons.listRestores",
    method: "GET",
    path: "/v1/projects/p/addons/a/backups/b/restores",
    call: (c) => c.addons.listRestores("p", "a", "b"),
    full: { id: "r1", status: "in-progress", restoreTimestamp: AT, completedAt: AT },
    read: ["id", "status"],
    list: "restores",
    status: "status",
  },
  {
    name: "observability.logs",
    method: "GET",
    path: "/v1/logs",
    call: (c) => c.observability.logs(),
    full: logLine,
    read: ["containerId", "log", "ts"],
    list: "",
  },
  {
    name: "observability.serviceLogs",
    method: "GET",
    path: "/v1/projects/p/services/s/logs",
    call: (c) => c.observability.serviceLogs("p", "s"),
    full: logLine,
    read: ["containerId", "log", "ts"],
    list: "",
  },
  {
    name: "observability.serviceMetrics",
    method: "GET",
    path: "/v1/projects/p/services/s/metrics",
    call: (c) => c.observability.serviceMetrics("p", "s"),
    full: {
      cpu: {
        metricInfo: { metricId: "cpu", metricUnit: "pct", metricResolution: 60 },
        values: [{ metadata: { containerId: "c", volumeId: "v" }, data: [{ value: 1, ts: AT }] }],
      },
    },
    read: ["cpu"],
  },
  {
    name: "templates.run",
    method: "POST",
    path: "/v1/templates/t/runs",
    call: (c) => c.templates.run("t"),
    full: templateRun,
    read: ["id", "status", "concluded"],
    status: "status",
  },
  {
    name: "templates.getRun",
    method: "GET",
    path: "/v1/templates/t/runs/tr-1",
    call: (c) => c.templates.getRun("t", "tr-1"),
    full: templateRun,
    read: ["id", "status", "concluded"],
    status: "status",
  },
  {
    name: "templates.listRuns",
    method: "GET",
    path: "/v1/templates/t/runs",
    call: (c) => c.templates.listRuns("t"),
    full: templateRun,
    read: ["id", "status"],
    list: "templateRuns",
    status: "status",
  },
  {
    name: "templates.abortRun",
    method: "POST",
    path: "/v1/templates/t/runs/tr-1/abort",
    call: (c) => c.templates.abortRun("t", "tr-1"),
    full: templateRun,
    read: ["id", "status", "concluded"],
    status: "status",
  },
  {
    name: "networking.listSubdomainPaths",
    method: "GET",
    path: "/v1/domains/d.example/subdomains/www/paths",
    call: (c) => c.networking.listSubdomainPaths("d.example", "www"),
    full: { subdomain: "www", mode: "prefix", uri: "/", options: { priority: 1 }, name: "x", createdAt: AT },
    read: [],
    list: "paths",
  },
  {
    name: "integrations.createNotification",
    method: "POST",
    path: "/v1/integrations/notifications",
    call: (c) =>
      c.integrations.createNotification({
        name: "hook",
        type: "RAW_WEBHOOK",
        webhook: "https://hooks.example/x",
        events: {},
      }),
    full: {
      id: "n1",
      name: "hook",
      type: "RAW_WEBHOOK",
      webhook: "https://hooks.example/x",
      createdAt: AT,
      updatedAt: AT,
      restricted: false,
      projects: [],
      events: {},
      status: { disabled: false },
    },
    read: ["id"],
    status: "type",
  },
  {
    name: "integrations.listRegistries",
    method: "GET",
    path: "/v1/integrations/registries",
    call: (c) => c.integrations.listRegistries(),
    full: {
      id: "reg",
      name: "reg",
      provider: "github",
      registryUrl: "ghcr.io",
      registryCredentialRefresh: { status: "healthy", failureCount: 0, retryDelay: 0 },
    },
    read: ["id"],
    list: "credentials",
    status: "provider",
  },
];

const pick = (full: Json, keys: string[]) => Object.fromEntries(keys.map((k) => [k, full[k]]));
const nulled = (full: Json, keys: string[]) =>
  Object.fromEntries(Object.entries(full).map(([k, v]) => [k, keys.includes(k) ? v : null]));

/** The answer for a case: its `data` built from one item, a list's envelope around a list's items. */
function answer(c: Case, item: Json): unknown {
  if (c.list === undefined) return { data: item };
  if (c.list === "") return { data: [item] };
  return { data: { [c.list]: [item] }, pagination: { hasNextPage: false, count: 1 } };
}

describe("odd answers, for every operation", () => {
  for (const c of CASES) {
    const reply = (item: Json) => t.server.on(c.method, c.path, () => ({ body: answer(c, item) }));

    it(`${c.name}: only the members that are read`, async () => {
      reply(pick(c.full, c.read));
      await expect(c.call(t.client)).resolves.not.toThrow();
    });

    it(`${c.name}: null for every member that is not read`, async () => {
      reply(nulled(c.full, c.read));
      await expect(c.call(t.client)).resolves.not.toThrow();
    });

    it(`${c.name}: a member nobody announced, and a status the spec does not list`, async () => {
      reply({
        ...c.full,
        addedLater: { nested: [1, "two"] },
        ...(c.status ? { [c.status]: "HIBERNATING" } : {}),
      });
      const result = await c.call(t.client);
      if (c.status && c.list === undefined) expect((result as Json)[c.status]).toBe("HIBERNATING");
    });
  }

  it("a usage entry with null deep inside (a price component, usage, a team's projects) is read, nulls as absent", async () => {
    const entry = {
      paas: {
        price: { total: 1, cpu: null },
        usage: null,
        teams: [{ id: UID, price: { total: 1, gpu: null }, projects: null }],
      },
      total: 1,
      byoc: null,
      window: null,
    };
    t.server.on("GET", "/v1/billing/usage", () => ({
      body: { data: { usage: [entry], currency: null }, pagination: { hasNextPage: false, cursor: null } },
    }));
    const page = await t.client.billing.listUsage();
    const read = page.data.usage[0];
    expect(read?.paas.teams?.[0]?.projects).toBeUndefined();
    expect(read?.paas.price?.cpu).toBeUndefined();
    expect(read?.total).toBe(1);
  });

  it("a list that leaves out its array, and its pagination, is an empty last page", async () => {
    t.server.on("GET", "/v1/projects/p/addons/a/backups/b/restores", () => ({ body: { data: {} } }));
    const page = await t.client.addons.listRestores("p", "a", "b");
    expect(page.items).toEqual([]);
    expect(page.pagination.hasNextPage).toBe(false);
  });

  it("a template run with no gitops is a run, for run, get and abort", async () => {
    const { gitops: _, ...run } = templateRun;
    for (const [method, path] of [
      ["POST", "/v1/templates/t/runs"],
      ["GET", "/v1/templates/t/runs/tr-1"],
      ["POST", "/v1/templates/t/runs/tr-1/abort"],
    ] as const)
      t.server.on(method, path, () => ({ body: { data: run } }));
    expect((await t.client.templates.run("t")).gitops).toBeUndefined();
    expect((await t.client.templates.getRun("t", "tr-1")).id).toBe("tr-1");
    expect((await t.client.templates.abortRun("t", "tr-1")).status).toBe("running");
  });

  it("a metric value sent as numeric text is read as a number; text that is no number is refused, naming it", async () => {
    const metrics = (value: unknown) => ({
      data: { cpu: { metricInfo: { metricId: "cpu" }, values: [{ data: [{ value, ts: AT }] }] } },
    });
    t.server.on("GET", "/v1/projects/p/services/s/metrics", (_r, n) => ({
      body: metrics(n === 1 ? "0.25" : "lots"),
    }));
    const read = await t.client.observability.serviceMetrics("p", "s");
    expect(read.cpu?.values?.[0]?.data[0]?.value).toBe(0.25);
    await expect(t.client.observability.serviceMetrics("p", "s")).rejects.toThrow(
      /data\.cpu\.values\.0\.data\.0\.value/,
    );
  });
});
