import { describe, expect, it } from "vitest";
import { createClient, RequestValidationError, ValidationError } from "../src/index.js";
import { build, TOKEN, useScriptedPlatform } from "./helpers/scripted-server.js";

const t = useScriptedPlatform();

async function rejected(promise: Promise<unknown>): Promise<RequestValidationError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestValidationError);
  expect(error).toBeInstanceOf(ValidationError);
  return error as RequestValidationError;
}

describe("strict request validation sends nothing", () => {
  it.each([
    [
      "a build with both branch and pullRequestId",
      () => t.client.builds.start("p", "s", { branch: "main", pullRequestId: 4 }),
      "body.pullRequestId",
    ],
    [
      "a bundle build naming a pull request",
      () => t.client.builds.start("p", "s", { bundleUrl: "https://example.com/b.tgz", pullRequestId: 7 }),
      "body.pullRequestId",
    ],
    [
      "a build sha that is not 40 characters",
      () => t.client.builds.start("p", "s", { branch: "main", sha: "abc123" }),
      "body.sha",
    ],
    [
      "a relative Dockerfile path",
      () =>
        t.client.builds.start("p", "s", {
          branch: "m",
          overrides: { docker: { dockerFilePath: "Dockerfile" } },
        }),
      "body.overrides.docker.dockerFilePath",
    ],
    [
      "an unknown body field",
      () => t.client.builds.start("p", "s", { branch: "m", colour: "red" } as never),
      "body",
    ],
    [
      "a job run with both internal and external deployments",
      () =>
        t.client.jobs.run("p", "j", {
          deployment: { internal: { id: "api" }, external: { imagePath: "nginx:1.27" } },
        }),
      "body.deployment.external",
    ],
    [
      "a runtime environment key with a space",
      () => t.client.jobs.run("p", "j", { runtimeEnvironment: { "DATABASE URL": "x" } }),
      "body.runtimeEnvironment.DATABASE URL",
    ],
    [
      "ephemeral storage under 1024 MB",
      () =>
        t.client.jobs.run("p", "j", {
          deployment: {
            external: { imagePath: "nginx:1" },
            storage: { ephemeralStorage: { storageSize: 512 } },
          },
        }),
      "body.deployment.storage.ephemeralStorage.storageSize",
    ],
    [
      "a docker customCommand config without its command",
      () =>
        t.client.jobs.run("p", "j", {
          deployment: { external: { imagePath: "nginx:1" }, docker: { configType: "customCommand" } },
        }),
      "body.deployment.docker.customCommand",
    ],
    [
      "a secret priority over 100",
      () => t.client.secrets.create("p", { name: "db creds", secretType: "environment", priority: 101 }),
      "body.priority",
    ],
    [
      "a secret name with two separators in a row",
      () => t.client.secrets.create("p", { name: "db--creds", secretType: "environment", priority: 1 }),
      "body.name",
    ],
    [
      "a secret file at a relative path",
      () =>
        t.client.secrets.create("p", {
          name: "db",
          secretType: "environment",
          priority: 1,
          secrets: { files: { "etc/x": { data: "", encoding: "base64" } } },
        }),
      "body.secrets.files.etc/x",
    ],
    [
      "a usage total over 366 days",
      () => t.client.billing.listUsage({ granularity: "total", startTime: 0, endTime: 367 * 86_400 }),
      "query.endTime",
    ],
    [
      "a usage total without startTime",
      () => t.client.billing.listUsage({ granularity: "total", endTime: 100 }),
      "query.startTime",
    ],
    [
      "a monthly usage page of 13",
      () => t.client.billing.listUsage({ granularity: "month", perPage: 13 }),
      "query.perPage",
    ],
    [
      "a teamId that is not a 24-hex uid",
      () => t.client.billing.listUsage({ teamId: "team-a" }),
      "query.teamId",
    ],
    [
      "a notification event key the platform does not have",
      () =>
        t.client.integrations.createNotification({
          name: "hooks",
          type: "RAW_WEBHOOK",
          webhook: "https://example.test/h",
          events: { "trigger:build:exploded": true },
        }),
      "body.events.trigger:build:exploded",
    ],
    [
      "a log query with duration and both ends",
      () =>
        t.client.observability.logs({
          duration: 60,
          startTime: "2026-01-01T00:00:00Z",
          endTime: "2026-01-01T01:00:00Z",
        }),
      "query.duration",
    ],
    [
      "a single metrics query with a startTime",
      () =>
        t.client.observability.serviceMetrics("p", "s", {
          queryType: "single",
          startTime: "2026-01-01T00:00:00Z",
        }),
      "query.startTime",
    ],
    ["per_page over 100", () => t.client.projects.list({ per_page: 101 }), "query.per_page"],
    ["an empty path parameter", () => t.client.builds.get("p", "", "b"), "path.2"],
    // A dot segment is resolved away: /services/../logs would read the project's logs instead.
    [
      "a path parameter of ..",
      () => t.client.observability.serviceLogs("p", "..", { queryType: "range" }),
      "path.2",
    ],
    ["a path parameter of .", () => t.client.builds.get("p", "s", "."), "path.3"],
  ])("%s", async (_name, call, field) => {
    const error = await rejected(call());
    expect(Object.keys(error.details as object)).toContain(field);
    expect(error.message).toContain("nothing was sent");
    expect(t.server.requests).toHaveLength(0);
  });

  it("accepts what the spec allows", async () => {
    t.server.on("POST", "/v1/projects/p/services/s/build", () => ({ body: { data: build("PENDING") } }));
    t.server.on("POST", "/v1/projects/p/jobs/j/runs", () => ({
      body: { data: { id: "r1", runName: "run-1" } },
    }));
    await t.client.builds.start("p", "s", { pullRequestId: "42", sha: "A".repeat(40) });
    await t.client.builds.start("p", "s", { bundleUrl: "https://example.test/b.tgz" });
    await t.client.jobs.run("p", "j", {
      deployment: { internal: { id: "other-project/api", buildSHA: "latest" } },
      runtimeEnvironment: { "app.mode/x-1": "on" },
    });
    await t.client.jobs.run("p", "j", {
      deployment: {
        external: { imagePath: `ghcr.io/acme/app@sha256:${"f".repeat(64)}`, credentials: "ghcr-creds" },
      },
    });
    expect(t.server.requests).toHaveLength(4);
    expect(t.server.requests[0]?.body).toEqual({ pullRequestId: "42", sha: "A".repeat(40) });
  });
});

describe("paths", () => {
  const emptyList = { body: { data: { projects: [] }, pagination: { hasNextPage: false, count: 0 } } };

  it("teamId on the client sends every request to the team twin; a call can override or drop it", async () => {
    const teamClient = createClient({ baseUrl: t.server.url, token: TOKEN, teamId: "team one" });
    t.server.on("GET", /projects$/, () => emptyList);
    t.server.on("GET", "/v1/teams", () => ({
      body: { data: { teams: [] }, pagination: { hasNextPage: false } },
    }));
    await teamClient.projects.list();
    await teamClient.projects.list({}, { teamId: "other" });
    await teamClient.projects.list({}, { teamId: null });
    await teamClient.teams.list();
    expect(t.server.requests.map((r) => r.path)).toEqual([
      "/v1/teams/team%20one/projects",
      "/v1/teams/other/projects",
      "/v1/projects",
      "/v1/teams",
    ]);
    await teamClient.close();
  });

  it("encodes path parameters and repeats metricTypes", async () => {
    t.server.on("GET", /metrics$/, () => ({ body: { data: {} } }));
    await t.client.observability.serviceMetrics("p/1", "svc?x", {
      metricTypes: ["cpu", "memory"],
      queryType: "range",
    });
    const [req] = t.server.requests;
    expect(req?.path).toBe("/v1/projects/p%2F1/services/svc%3Fx/metrics");
    expect(req?.query.getAll("metricTypes")).toEqual(["cpu", "memory"]);
  });

  it("t.client.request goes through the same transport, twin included", async () => {
    t.server.on("GET", "/v1/teams/t1/projects", () => emptyList);
    const body = await t.client.request({
      method: "GET",
      path: "/v1/projects",
      query: { per_page: 5 },
      teamId: "t1",
    });
    expect(body).toEqual(emptyList.body);
    expect(t.server.requests[0]?.query.get("per_page")).toBe("5");
  });

  it("tolerates fields and statuses the spec does not list", async () => {
    t.server.on("GET", "/v1/projects/p/services/s/build/b", () => ({
      body: { data: build("WARMING_UP", false, { newField: { a: 1 } }), extra: true },
    }));
    const b = await t.client.builds.get("p", "s", "b");
    expect(b.status).toBe("WARMING_UP");
    expect((b as Record<string, unknown>).newField).toEqual({ a: 1 });
  });
});

describe("beforeSend", () => {
  it("runs once a request is valid and before it is sent; never for an invalid one; a throw sends nothing", async () => {
    t.server.on("POST", "/v1/projects/p1/services/s1/build", () => ({ body: { data: build("PENDING") } }));
    const seen: number[] = [];
    const beforeSend = async () => {
      seen.push(t.server.requests.length);
    };
    await rejected(t.client.builds.start("p1", "s1", { branch: "" }, { beforeSend }));
    expect(seen).toEqual([]);
    await t.client.builds.start("p1", "s1", { branch: "main" }, { beforeSend });
    expect(seen).toEqual([0]);
    expect(t.server.requests).toHaveLength(1);
    const refused = new Error("the record could not be opened");
    const error = await t.client.builds
      .start("p1", "s1", { branch: "main" }, { beforeSend: () => Promise.reject(refused) })
      .catch((e: unknown) => e);
    expect(error).toBe(refused);
    expect(t.server.requests).toHaveLength(1);
  });
});
