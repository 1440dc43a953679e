import { describe, expect, it } from "vitest";
import { type Emulated, useEmulator } from "../helpers.js";

// Every operation of the spec (section 4) and of beyond-the-seed §1, on one table: a happy path,
// a validation failure naming the field, a not-found, the team twin answering the same, and the
// read-only token refused on writes.

// Speed 0: virtual time moves only when a test advances it, so answers compare exactly.
const emu = useEmulator({ speed: 0 });
const P = "/v1/projects/platform-web";
const TWIN_TEAM = "platform";

interface Operation {
  name: string;
  method: "GET" | "POST" | "DELETE";
  /** Runs first (e.g. starts the build an abort needs) and gives the path. */
  path: (e: Emulated) => Promise<string> | string;
  query?: Record<string, string | number | boolean | string[]>;
  body?: unknown;
  /** Input the spec refuses, and a field the 400's details must name. */
  invalid?: { query?: Record<string, string | number>; body?: unknown; field: string };
  notFound?: string;
  /** GETs compare the twin's body; writes compare its status. */
  write?: boolean;
}

const started = {
  build: async (e: Emulated) =>
    (await e.api("POST", `${P}/services/web/build`, { body: { branch: "main" } })).body.data.id as string,
  jobRun: async (e: Emulated) =>
    (await e.api("POST", `${P}/jobs/migrate/runs`, { body: {} })).body.data.id as string,
  templateRun: async (e: Emulated) =>
    (await e.api("POST", "/v1/templates/release/runs", { body: { arguments: {} } })).body.data.id as string,
};

const operations: Operation[] = [
  {
    name: "list teams",
    method: "GET",
    path: () => "/v1/teams",
    invalid: { query: { per_page: 101 }, field: "query.per_page" },
  },
  {
    name: "list projects",
    method: "GET",
    path: () => "/v1/projects",
    invalid: { query: { per_page: 0 }, field: "query.per_page" },
    notFound: "/v1/teams/nope/projects",
  },
  { name: "get pipeline", method: "GET", path: () => `${P}/pipelines/main`, notFound: `${P}/pipelines/nope` },
  {
    name: "create secret group",
    method: "POST",
    write: true,
    path: () => `${P}/secrets`,
    body: {
      name: "app config",
      secretType: "environment",
      priority: 10,
      secrets: { variables: { "API-KEY": "s3cret" } },
    },
    invalid: { body: { name: "x", secretType: "environment", priority: 101 }, field: "body.priority" },
    notFound: "/v1/projects/nope/secrets",
  },
  {
    name: "link addon to secret",
    method: "POST",
    write: true,
    path: async (e) => {
      await e.api("POST", `${P}/secrets`, {
        body: { name: "db link", secretType: "environment", priority: 1 },
      });
      return `${P}/secrets/db-link/addons/db`;
    },
    body: { keys: [{ keyName: "host", aliases: ["DB_HOST"] }] },
    invalid: { body: { keys: [{ keyName: "host-1" }] }, field: "body.keys.0.keyName" },
    notFound: `${P}/secrets/nope/addons/db`,
  },
  {
    name: "run job",
    method: "POST",
    write: true,
    path: () => `${P}/jobs/migrate/runs`,
    body: { runtimeEnvironment: { "LOG.LEVEL": "debug" } },
    invalid: { body: { billing: { deploymentPlan: "x" } }, field: "body.billing.deploymentPlan" },
    notFound: `${P}/jobs/nope/runs`,
  },
  {
    name: "list job runs",
    method: "GET",
    path: () => `${P}/jobs/migrate/runs`,
    invalid: { query: { per_page: 500 }, field: "query.per_page" },
    notFound: `${P}/jobs/nope/runs`,
  },
  {
    name: "get job run",
    method: "GET",
    path: async (e) => `${P}/jobs/migrate/runs/${await started.jobRun(e)}`,
    notFound: `${P}/jobs/migrate/runs/nope`,
  },
  {
    name: "abort job run",
    method: "DELETE",
    write: true,
    path: async (e) => `${P}/jobs/migrate/runs/${await started.jobRun(e)}`,
    notFound: `${P}/jobs/migrate/runs/nope`,
  },
  {
    name: "job logs",
    method: "GET",
    path: async (e) => {
      await started.jobRun(e);
      return `${P}/jobs/migrate/logs`;
    },
    query: { direction: "forward" },
    invalid: { query: { direction: "sideways" }, field: "query.direction" },
    notFound: `${P}/jobs/nope/logs`,
  },
  {
    name: "resume job",
    method: "POST",
    write: true,
    path: () => `${P}/jobs/nightly-report/resume`,
    body: { suspended: false },
    invalid: { body: { suspended: "no" }, field: "body.suspended" },
    notFound: `${P}/jobs/nope/resume`,
  },
  {
    name: "set job runtime environment",
    method: "POST",
    write: true,
    path: () => `${P}/jobs/migrate/runtime-environment`,
    body: { runtimeEnvironment: { LEVEL: "debug" } },
    invalid: { body: { runtimeEnvironment: { "BAD KEY": "x" } }, field: "body.runtimeEnvironment.BAD KEY" },
    notFound: `${P}/jobs/nope/runtime-environment`,
  },
  {
    name: "job health checks",
    method: "GET",
    path: () => `${P}/jobs/migrate/health-checks`,
    notFound: `${P}/jobs/nope/health-checks`,
  },
  {
    name: "start build",
    method: "POST",
    write: true,
    path: () => `${P}/services/web/build`,
    body: { branch: "main" },
    invalid: { body: { branch: "main", sha: "abc" }, field: "body.sha" },
    notFound: `${P}/services/nope/build`,
  },
  {
    name: "list builds",
    method: "GET",
    path: () => `${P}/services/web/build`,
    invalid: { query: { page: 0 }, field: "query.page" },
    notFound: `${P}/services/nope/build`,
  },
  {
    name: "get build",
    method: "GET",
    path: async (e) => `${P}/services/web/build/${await started.build(e)}`,
    notFound: `${P}/services/web/build/nope`,
  },
  {
    name: "abort build",
    method: "DELETE",
    write: true,
    path: async (e) => `${P}/services/web/build/${await started.build(e)}`,
    notFound: `${P}/services/web/build/nope`,
  },
  {
    name: "build logs",
    method: "GET",
    path: async (e) => `${P}/services/web/build-logs?buildId=${await started.build(e)}`,
    invalid: { query: { lineLimit: 0 }, field: "query.lineLimit" },
    notFound: `${P}/services/web/build-logs?buildId=nope`,
  },
  {
    name: "build arguments",
    method: "GET",
    path: () => `${P}/services/web/build-arguments`,
    query: { show: "this" },
    invalid: { query: { show: "everything" }, field: "query.show" },
    notFound: `${P}/services/nope/build-arguments`,
  },
  { name: "get service", method: "GET", path: () => `${P}/services/web`, notFound: `${P}/services/nope` },
  {
    name: "restart service",
    method: "POST",
    write: true,
    path: () => `${P}/services/web/restart`,
    notFound: `${P}/services/nope/restart`,
  },
  {
    name: "restart harness",
    method: "POST",
    write: true,
    path: () => `${P}/harnesses/devbox/restart`,
    query: { acknowledgeActiveSessions: true },
    invalid: { query: { acknowledgeActiveSessions: "maybe" }, field: "query.acknowledgeActiveSessions" },
    notFound: `${P}/harnesses/nope/restart`,
  },
  {
    name: "service logs",
    method: "GET",
    path: () => `${P}/services/web/logs`,
    query: { lineLimit: 10 },
    invalid: { query: { duration: 0 }, field: "query.duration" },
    notFound: `${P}/services/nope/logs`,
  },
  { name: "get addon", method: "GET", path: () => `${P}/addons/db`, notFound: `${P}/addons/nope` },
  {
    name: "get backup",
    method: "GET",
    path: () => `${P}/addons/db/backups/db-live-1`,
    notFound: `${P}/addons/db/backups/nope`,
  },
  {
    name: "restore backup",
    method: "POST",
    write: true,
    path: () => `${P}/addons/db/backups/db-live-1/restore`,
    invalid: { query: { sourceProjectId: "" }, field: "query.sourceProjectId" },
    notFound: `${P}/addons/db/backups/nope/restore`,
  },
  {
    name: "list restores",
    method: "GET",
    path: () => `${P}/addons/db/backups/db-live-1/restores`,
    notFound: `${P}/addons/db/backups/nope/restores`,
  },
  {
    name: "upgrade addon",
    method: "POST",
    write: true,
    path: () => `${P}/addons/db/version`,
    body: { version: "17.0" },
    invalid: { body: { version: "99" }, field: "body.version" },
    notFound: `${P}/addons/nope/version`,
  },
  {
    name: "service metrics",
    method: "GET",
    path: () => `${P}/services/web/metrics`,
    query: { queryType: "single", metricTypes: ["cpu"] },
    invalid: { query: { metricTypes: "bogus" }, field: "query.metricTypes.0" },
    notFound: `${P}/services/nope/metrics`,
  },
  {
    name: "addon metrics",
    method: "GET",
    path: () => `${P}/addons/db/metrics`,
    query: { queryType: "single" },
    invalid: { query: { queryType: "single", startTime: "2026-01-01T00:00:00Z" }, field: "query.startTime" },
    notFound: `${P}/addons/nope/metrics`,
  },
  {
    name: "container logs",
    method: "GET",
    path: () => "/v1/logs",
    query: { projectId: "platform-web", containerName: "web", lineLimit: 5 },
    invalid: { query: { regexIncludes: "(" }, field: "query.regexIncludes" },
    notFound: "/v1/logs?projectId=nope",
  },
  {
    name: "run template",
    method: "POST",
    write: true,
    path: () => "/v1/templates/release/runs",
    body: { arguments: { version: "1.2.3" } },
    invalid: { body: { arguments: "1.2.3" }, field: "body.arguments" },
    notFound: "/v1/templates/nope/runs",
  },
  {
    name: "list template runs",
    method: "GET",
    path: () => "/v1/templates/release/runs",
    invalid: { query: { status: "done" }, field: "query.status" },
    notFound: "/v1/templates/nope/runs",
  },
  {
    name: "get template run",
    method: "GET",
    path: async (e) => `/v1/templates/release/runs/${await started.templateRun(e)}`,
    notFound: "/v1/templates/release/runs/nope",
  },
  {
    name: "abort template run",
    method: "POST",
    write: true,
    path: async (e) => `/v1/templates/release/runs/${await started.templateRun(e)}/abort`,
    notFound: "/v1/templates/release/runs/nope/abort",
  },
  {
    name: "list subdomain paths",
    method: "GET",
    path: () => "/v1/domains/example.com/subdomains/api/paths",
    invalid: { query: { per_page: 101 }, field: "query.per_page" },
    notFound: "/v1/domains/nope.example/subdomains/api/paths",
  },
  {
    name: "create notification",
    method: "POST",
    write: true,
    path: () => "/v1/integrations/notifications",
    body: {
      name: "deploys",
      type: "RAW_WEBHOOK",
      webhook: "http://127.0.0.1:9/hook",
      events: { "trigger:build:success": true },
    },
    invalid: {
      body: { name: "deploys", type: "PIGEON", webhook: "http://127.0.0.1:9/hook", events: {} },
      field: "body.type",
    },
  },
  {
    name: "list registries",
    method: "GET",
    path: () => "/v1/integrations/registries",
    invalid: { query: { per_page: 101 }, field: "query.per_page" },
  },
  {
    name: "list invoices",
    method: "GET",
    path: () => "/v1/billing/invoices",
    invalid: { query: { perPage: 101 }, field: "query.perPage" },
  },
  {
    name: "get invoice",
    method: "GET",
    path: async (e) =>
      `/v1/billing/invoices/${(await e.api("GET", "/v1/billing/invoices")).body.data.invoices[0].id}`,
    invalid: { query: { teamsPerPage: 101 }, field: "query.teamsPerPage" },
    notFound: "/v1/billing/invoices/inv-nope",
  },
  {
    name: "list usage",
    method: "GET",
    path: () => "/v1/billing/usage",
    query: { granularity: "day", perPage: 3 },
    invalid: { query: { granularity: "total" }, field: "query.startTime" },
  },
  {
    name: "get usage hour",
    method: "GET",
    path: async (e) =>
      `/v1/billing/usage/${(await e.api("GET", "/v1/billing/usage", { query: { perPage: 1 } })).body.data.usage[0].timestamp}`,
    invalid: { query: { resourceType: "robot" }, field: "query.resourceType" },
    notFound: "/v1/billing/usage/3600",
  },
  { name: "credit balance", method: "GET", path: () => "/v1/billing/credit-balance" },
];

const twin = (path: string) => path.replace(/^\/v1\//, `/v1/teams/${TWIN_TEAM}/`);

describe("every operation", () => {
  for (const op of operations) {
    describe(op.name, () => {
      it("answers 200 with data", async () => {
        const path = await op.path(emu);
        const answer = await emu.api(op.method, path, {
          query: op.query,
          body: op.body ?? (op.method === "POST" ? {} : undefined),
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.body).toHaveProperty("data");
      });

      if (op.invalid) {
        const invalid = op.invalid;
        it(`refuses invalid input with 400 naming ${invalid.field}`, async () => {
          const path = await op.path(emu);
          const answer = await emu.api(op.method, path, {
            query: invalid.query,
            body: invalid.body ?? op.body,
          });
          expect(answer.status, JSON.stringify(answer.body)).toBe(400);
          expect(answer.body.error.status).toBe(400);
          expect(Object.keys(answer.body.error.details)).toContain(invalid.field);
        });
      }

      if (op.notFound) {
        const notFound = op.notFound;
        it("answers 404 for an unknown resource", async () => {
          const answer = await emu.api(op.method, notFound, {
            body: op.body ?? (op.method === "POST" ? {} : undefined),
          });
          expect(answer.status, JSON.stringify(answer.body)).toBe(404);
          expect(answer.body.error).toMatchObject({
            status: 404,
            message: expect.any(String),
            id: expect.any(String),
          });
        });
      }

      it("answers the same on the /v1/teams/{teamId} twin", async () => {
        const path = await op.path(emu);
        const token = emu.fixtures.tokens.teamViaOrg;
        if (op.write) {
          const answer = await emu.api(op.method, twin(path), {
            token,
            query: op.query,
            body: op.body ?? {},
          });
          // A second create of the same named thing conflicts; everything else succeeds again.
          expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
          return;
        }
        const plain = await emu.api(op.method, path, { token, query: op.query });
        const twinned = await emu.api(op.method, twin(path), { token, query: op.query });
        expect(twinned.status).toBe(plain.status);
        if (plain.status === 403) return; // the credit balance of a team billed through the organisation
        expect(twinned.body).toEqual(plain.body);
      });

      if (op.write) {
        it("refuses the read-only token with 403", async () => {
          const path = await op.path(emu);
          const answer = await emu.api(op.method, path, {
            token: emu.fixtures.tokens.readOnly,
            query: op.query,
            body: op.body ?? {},
          });
          expect(answer.status).toBe(403);
          expect(answer.body.error.message).toMatch(/permission/);
        });
      }
    });
  }
});
