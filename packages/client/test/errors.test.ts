import { describe, expect, it } from "vitest";
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  CwpError,
  createClient,
  NotFoundError,
  NotTheApiError,
  PermissionError,
  RateLimitError,
  ServerError,
  UnexpectedResponseError,
  ValidationError,
} from "../src/index.js";
import { TOKEN, useScriptedPlatform } from "./helpers/scripted-server.js";

const t = useScriptedPlatform({ maxRetries: 0 });

const errorBody = (status: number, message: string, details?: unknown) => ({
  error: { status, message, id: `err-${status}`, details },
});

describe("errors by status, from real responses", () => {
  const cases: Array<[number, typeof CwpError]> = [
    [400, ValidationError],
    [401, AuthenticationError],
    [403, PermissionError],
    [404, NotFoundError],
    [409, ConflictError],
    [429, RateLimitError],
    [500, ServerError],
    [503, ServerError],
    [418, ApiError],
  ];
  it.each(cases)("%i gives %o with method, path, status and error id", async (status, ErrorClass) => {
    t.server.on("GET", "/v1/projects", () => ({
      status,
      body: errorBody(status, `status ${status} happened`),
    }));
    const error = await t.client.projects.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(CwpError);
    const e = error as CwpError;
    expect(e.status).toBe(status);
    expect(e.method).toBe("GET");
    expect(e.path).toBe("/v1/projects");
    expect(e.errorId).toBe(`err-${status}`);
    expect(e.message).toContain(`status ${status} happened`);
  });

  it("a 400 carries the field details and names them in the message", async () => {
    t.server.on("POST", "/v1/projects/p1/jobs/j1/runs", () => ({
      status: 400,
      body: errorBody(400, "invalid input", { "runtimeEnvironment.A_B": ["keys contain only letters"] }),
    }));
    const error = (await t.client.jobs.run("p1", "j1", {}).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details).toEqual({ "runtimeEnvironment.A_B": ["keys contain only letters"] });
    expect(error.message).toContain("runtimeEnvironment.A_B: keys contain only letters");
  });

  it("a proxy's HTML error page gives an error by status, not a parse failure", async () => {
    t.server.on("GET", "/v1/projects", () => ({ status: 502, raw: "<html><body>Bad gateway</body></html>" }));
    const error = (await t.client.projects.list().catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.status).toBe(502);
  });

  it("a 200 that is not JSON, or lacks a required field, is an UnexpectedResponseError", async () => {
    t.server.on("GET", "/v1/projects", () => ({ raw: "<html>login</html>" }));
    await expect(t.client.projects.list()).rejects.toBeInstanceOf(UnexpectedResponseError);
    t.server.on("GET", "/v1/teams", () => ({
      body: { data: { teams: [{ name: "no id" }] }, pagination: { hasNextPage: false } },
    }));
    const error = (await t.client.teams.list().catch((e: unknown) => e)) as UnexpectedResponseError;
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toContain("data.teams.0.id");
  });
});

describe("the token", () => {
  it("is sent as a bearer token", async () => {
    t.server.on("GET", "/v1/projects", () => ({
      body: { data: { projects: [] }, pagination: { hasNextPage: false, count: 0 } },
    }));
    await t.client.projects.list();
    expect(t.server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(t.server.requests[0]?.headers["user-agent"]).toMatch(/^cwp-client\/\d+\.\d+\.\d+ node\/v24/);
  });

  it("never appears in any error's message, stack or JSON, even when the platform echoes it", async () => {
    t.server.on("GET", "/v1/projects", () => ({
      status: 401,
      body: errorBody(401, `token ${TOKEN} is not valid`),
    }));
    t.server.on("POST", "/v1/templates/t1/runs", () => ({ reset: true }));
    const errors = [
      await t.client.projects.list().catch((e: unknown) => e),
      await t.client.templates.run("t1").catch((e: unknown) => e),
      await createClient({ baseUrl: "http://127.0.0.1:1", token: TOKEN, maxRetries: 0 })
        .projects.list()
        .catch((e: unknown) => e),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(CwpError);
      const e = error as CwpError;
      const cause = e.cause as Error | undefined;
      for (const text of [
        e.message,
        e.stack ?? "",
        JSON.stringify(e),
        String(e),
        cause?.message ?? "",
        cause?.stack ?? "",
      ]) {
        expect(text).not.toContain(TOKEN);
      }
    }
  });
});

describe("errors that say what to do", () => {
  it("a redirect names where it points and the base URL to check, instead of a body that does not match", async () => {
    t.server.on("GET", "/v1/projects", () => ({
      status: 302,
      headers: { location: "https://login.example.com/" },
    }));
    const error = (await t.client.projects.list().catch((e: unknown) => e)) as NotTheApiError;
    expect(error).toBeInstanceOf(NotTheApiError);
    expect(error.message).toContain("was redirected (302 to https://login.example.com/)");
    expect(error.message).toContain("is not the API: check the API URL (api-url / CWP_API_URL)");
  });

  it("a start answered by a web page (200 HTML, 405) is not the API: known to have started nothing, never 'outcome unknown'", async () => {
    const start = "/v1/projects/p/services/s/build";
    for (const answer of [
      { status: 200, headers: { "content-type": "text/html" }, raw: "<!doctype html><p>Welcome" },
      { status: 405, headers: { "content-type": "text/html" }, raw: "<h1>405 Not Allowed</h1>" },
    ]) {
      t.server.on("POST", start, () => answer);
      const error = (await t.client.builds
        .start("p", "s", { branch: "main" })
        .catch((e: unknown) => e)) as CwpError;
      expect(error.message).toContain("is not the API: check the API URL (api-url / CWP_API_URL)");
      expect(error.message).not.toMatch(/outcome is unknown|may have acted/);
      expect(error.outcomeUnknown).toBe(false);
    }
  });

  it("a 401 says to check the token", async () => {
    t.server.on("GET", "/v1/projects", () => ({ status: 401, body: errorBody(401, "bad token") }));
    const error = (await t.client.projects.list().catch((e: unknown) => e)) as AuthenticationError;
    expect(error.message).toContain("Check the API token");
  });

  it("a 429 says when the limit resets", async () => {
    t.server.on("GET", "/v1/projects", () => ({
      status: 429,
      headers: { "x-ratelimit-limit": "1000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "42" },
      body: errorBody(429, "rate limit exceeded"),
    }));
    const error = (await t.client.projects.list().catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toMatch(/resets in (41|42) s/);
  });
});
