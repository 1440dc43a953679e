import { readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers.js";

// Thousands of random and malformed requests: the emulator keeps answering with JSON, never a
// 5xx, and its state stays consistent.

const emu = useEmulator({ speed: 50, rateLimit: 1_000_000 });

const word = fc.constantFrom(
  "v1",
  "teams",
  "platform",
  "labs",
  "projects",
  "platform-web",
  "data-api",
  "services",
  "web",
  "gateway",
  "image-builder",
  "build",
  "builds",
  "jobs",
  "migrate",
  "nightly-report",
  "runs",
  "resume",
  "logs",
  "addons",
  "db",
  "backups",
  "db-live-1",
  "restore",
  "restores",
  "version",
  "metrics",
  "templates",
  "release",
  "abort",
  "billing",
  "usage",
  "invoices",
  "credit-balance",
  "domains",
  "example.com",
  "subdomains",
  "api",
  "paths",
  "integrations",
  "notifications",
  "registries",
  "secrets",
  "harnesses",
  "devbox",
  "restart",
  "%",
  "%ZZ",
  "..",
  "",
);
const segment = fc.oneof(word, word, word, fc.string({ maxLength: 12 }).map(encodeURIComponent));
const randomPath = fc.array(segment, { minLength: 1, maxLength: 9 }).map((parts) => `/${parts.join("/")}`);
// Real operations with mostly-valid identifiers, so many requests reach the handlers.
const realPath = fc
  .record({
    template: fc.constantFrom(
      "/v1/projects",
      "/v1/teams",
      "/v1/projects/{p}/services/{s}",
      "/v1/projects/{p}/services/{s}/build",
      "/v1/projects/{p}/services/{s}/logs",
      "/v1/projects/{p}/services/{s}/restart",
      "/v1/projects/{p}/jobs/{j}/runs",
      "/v1/projects/{p}/jobs/{j}/resume",
      "/v1/projects/{p}/addons/db",
      "/v1/projects/{p}/addons/db/version",
      "/v1/projects/{p}/addons/db/backups/db-live-1/restore",
      "/v1/templates/release/runs",
      "/v1/billing/usage",
      "/v1/billing/invoices",
      "/v1/billing/credit-balance",
      "/v1/logs",
    ),
    twin: fc.constantFrom("", "", "/teams/platform", "/teams/labs", "/teams/nope"),
    p: fc.constantFrom("platform-web", "labs-api", "data-batch", "nope"),
    s: fc.constantFrom("web", "gateway", "image-builder", "nope"),
    j: fc.constantFrom("migrate", "nightly-report", "nope"),
  })
  .map(({ template, twin, p, s, j }) =>
    template.replace("/v1", `/v1${twin}`).replace("{p}", p).replace("{s}", s).replace("{j}", j),
  );
const path = fc.oneof(randomPath, realPath, realPath);
const queryValue = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.integer({ min: -5, max: 2_000_000_000 }).map(String),
  fc.constantFrom("true", "false", "hour", "day", "month", "total", "forward"),
);
const query = fc.dictionary(
  fc.constantFrom(
    "per_page",
    "page",
    "cursor",
    "granularity",
    "startTime",
    "endTime",
    "perPage",
    "teamId",
    "projectId",
    "resourceType",
    "lineLimit",
    "duration",
    "direction",
    "regexIncludes",
    "metricTypes",
    "queryType",
    "buildId",
    "runId",
    "show",
    "acknowledgeActiveSessions",
    "teamsPage",
    "resourcesPerPage",
  ),
  queryValue,
  { maxKeys: 4 },
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 40 }),
  fc.constant(JSON.stringify({ branch: "main" })),
  fc.constant(JSON.stringify({ version: "17.0" })),
  fc.constant(JSON.stringify({ arguments: {} })),
);
const request = fc.record({
  method: fc.constantFrom("GET", "GET", "POST", "POST", "DELETE", "PUT"),
  path,
  query,
  body,
  contentType: fc.constantFrom("application/json", "application/json", "text/plain", ""),
  token: fc.constantFrom("org", "teamViaOrg", "teamOwnBilling", "readOnly", "none", "bogus"),
});

describe("robustness", () => {
  it("answers 3000 random requests with JSON and no 5xx, and stays consistent", {
    timeout: 120_000,
  }, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const search = new URLSearchParams(r.query).toString();
        const token =
          r.token === "none"
            ? undefined
            : r.token === "bogus"
              ? "cwp_bogus"
              : emu.fixtures.tokens[r.token as "org"];
        const res = await fetch(`${emu.url}${r.path}${search ? `?${search}` : ""}`, {
          method: r.method,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(r.contentType ? { "content-type": r.contentType } : {}),
          },
          ...(r.body !== undefined && r.method !== "GET" ? { body: r.body } : {}),
        });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${r.method} ${r.path} → ${text}`).toBeLessThan(500);
        const parsed = JSON.parse(text);
        expect(res.status === 200 ? "data" in parsed : "error" in parsed).toBe(true);
      }),
      { numRuns: 3000, seed: 20261121 },
    );
    // Some of the random requests did reach the platform's operations.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
    const projects = await emu.api("GET", "/v1/projects");
    expect(projects.status).toBe(200);
    const fixtures = (await emu.control("GET", "fixtures")).body;
    expect(fixtures.projects).toHaveLength(9);
    for (const addon of fixtures.addons) expect(addon.versions).toContain(addon.version);
  });
});

describe("the control plane's edges", () => {
  /** A request with its target exactly as written (fetch would resolve dot segments first). */
  const raw = (path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(emu.url);
      const req = httpRequest({ host: hostname, port, path, method: "GET" }, (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });

  it("refuses an API path with dot segments instead of resolving it to the control plane", async () => {
    for (const path of [
      "/v1/projects/%2e%2e/%2e%2e/_emulator/fixtures",
      "/v1/projects/../../_emulator/fixtures",
    ]) {
      const answer = await raw(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body).not.toContain("tokens");
    }
  });

  it("refuses a clock advance too large to read, without applying it", async () => {
    const before = (await emu.control("GET", "clock")).body as { now: string };
    const refused = await fetch(`${emu.url}/_emulator/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"advanceSeconds": 1e300}',
    });
    expect(refused.status).toBe(400);
    const after = (await emu.control("GET", "clock")).body as { now: string };
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeLessThan(60_000);
    expect((await emu.api("GET", "/v1/projects")).status).toBe(200);
  });

  it("answers the README's control-plane examples as written", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    const block = /## Control plane\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    const json = /^J='([^']*)'/m.exec(block)?.[1];
    const commands = block.split("\n").filter((line) => line.startsWith("curl "));
    expect(commands.length).toBeGreaterThanOrEqual(6);
    for (const command of commands) {
      const path = /\$E(\/\S+)/.exec(command)?.[1] ?? "";
      const body = / -d '([^']*)'/.exec(command)?.[1];
      const headers =
        command.includes('-H "$J"') && json ? { [json.split(": ")[0] ?? ""]: json.split(": ")[1] ?? "" } : {};
      const answer = await fetch(`${emu.url}${path}`, {
        method: command.includes("-XPOST") ? "POST" : "GET",
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      expect(answer.status, command).toBe(200);
    }
    await emu.control("POST", "reset");
  });
});

describe("the control plane, handed what HTTP cannot carry", () => {
  const small = useEmulator({ requestLogSize: 20 });

  it("refuses a fault whose headers HTTP cannot carry, naming the header, and keeps answering", async () => {
    for (const headers of [
      { "x-bad": "one\r\nSet-Cookie: two" },
      { "x-bad": "naïve ✓" },
      { "bad name": "x" },
    ]) {
      const refused = await small.control("POST", "faults", { path: "/v1/projects", status: 200, headers });
      expect(refused.status, JSON.stringify(headers)).toBe(400);
      expect(JSON.stringify(refused.body)).toContain("headers");
    }
    expect((await small.api("GET", "/v1/projects")).status).toBe(200);
  });

  it("keeps the last requests in its log, not every one", async () => {
    await small.control("DELETE", "requests");
    for (let i = 0; i < 45; i += 1) await small.api("GET", "/v1/projects", { query: { page: i + 1 } });
    const { requests } = (await small.control("GET", "requests")).body as {
      requests: Array<{ query: { page: string } }>;
    };
    expect(requests.map((r) => Number(r.query.page))).toEqual(Array.from({ length: 20 }, (_, i) => 26 + i));
  });

  it("answers a secret group's files and mounts in the spec's shape, their data hidden", async () => {
    const data = Buffer.from("s3cret file").toString("base64");
    const created = await small.api("POST", `/v1/projects/platform-web/secrets`, {
      body: {
        name: "tls files",
        secretType: "environment",
        priority: 1,
        secrets: {
          files: { "/etc/tls/key.pem": { data, encoding: "base64" } },
          dockerSecretMounts: { npmrc: { data, encoding: "base64" } },
        },
      },
    });
    expect(created.status).toBe(200);
    const { secrets } = (created.body as { data: { secrets: Record<string, unknown> } }).data;
    expect(secrets.files).toEqual({ "/etc/tls/key.pem": { data: "********", encoding: "base64" } });
    expect(secrets.dockerSecretMounts).toEqual({ npmrc: { data: "********", encoding: "base64" } });
    expect(JSON.stringify(created.body)).not.toContain(data);
  });
});
