import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { ConnectionError, createClient, ServerError, TimeoutError } from "../src/index.js";
import { build, FAST, freePort, TOKEN, useScriptedPlatform } from "./helpers/scripted-server.js";

const t = useScriptedPlatform(FAST);

const projects = { data: { projects: [] }, pagination: { hasNextPage: false, count: 0 } };
const BUILD_PATH = "/v1/projects/p1/services/s1/build";

describe("reads and other idempotent requests", () => {
  it("a GET is retried through 503, 503 and succeeds on the 200", async () => {
    t.server.on("GET", "/v1/projects", (_req, n) =>
      n <= 2 ? { status: 503, body: { error: { status: 503, message: "busy" } } } : { body: projects },
    );
    const page = await t.client.projects.list();
    expect(page.items).toEqual([]);
    expect(t.server.requests.map((r) => r.method)).toEqual(["GET", "GET", "GET"]);
  });

  it("gives up after maxRetries with the last error", async () => {
    t.server.on("GET", "/v1/projects", () => ({ status: 500 }));
    await expect(t.client.projects.list()).rejects.toBeInstanceOf(ServerError);
    expect(t.server.requests).toHaveLength(4);
  });

  it("a GET whose response stalls past the per-attempt timeout is sent again", async () => {
    const quick = createClient({ baseUrl: t.server.url, token: TOKEN, timeoutMs: 200, ...FAST });
    t.server.on("GET", "/v1/projects", (_req, n) =>
      n === 1 ? { delayMs: 1_000, body: projects } : { body: projects },
    );
    await quick.projects.list();
    expect(t.server.requests).toHaveLength(2);
    await quick.close();
  });

  it("a platform that never answers: two attempts, then an error that says it did not answer", async () => {
    const quick = createClient({ baseUrl: t.server.url, token: TOKEN, timeoutMs: 200, ...FAST });
    t.server.on("GET", "/v1/projects", () => ({ delayMs: 5_000, body: projects }));
    const startedAt = Date.now();
    const error = (await quick.projects.list().catch((e: unknown) => e)) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toMatch(
      /^GET \/v1\/projects: the platform at http:\/\/127\.0\.0\.1:\d+ did not answer within 0\.2 s \(2 attempts over 0\.\d s\)$/,
    );
    expect(t.server.requests).toHaveLength(2);
    expect(Date.now() - startedAt).toBeLessThan(1_500);
    await quick.close();
  });

  it("each attempt keeps its own time limit while others with longer ones are under way", async () => {
    // All attempts share one timer (expiry-watch.ts): a short limit set while a long one is
    // waited on must still end its attempt on time, and the long one must not end with it.
    const patient = createClient({ baseUrl: t.server.url, token: TOKEN, timeoutMs: 3_000, maxRetries: 0 });
    const quick = createClient({ baseUrl: t.server.url, token: TOKEN, timeoutMs: 200, maxRetries: 0 });
    t.server.on("GET", "/v1/projects", (_req, n) =>
      n === 1 ? { delayMs: 1_500, body: projects } : { delayMs: 5_000 },
    );
    const startedAt = Date.now();
    const long = patient.projects.list();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const short = await quick.projects.list().catch((e: unknown) => e);
    expect(short).toBeInstanceOf(TimeoutError);
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    await expect(long).resolves.toMatchObject({ items: projects.data.projects });
    await Promise.all([patient.close(), quick.close()]);
  });
});

describe("requests that start work", () => {
  it("a start-build POST answered 503 is sent once and reports an unknown outcome", async () => {
    t.server.on("POST", BUILD_PATH, () => ({
      status: 503,
      body: { error: { status: 503, message: "unavailable", id: "e1" } },
    }));
    const error = (await t.client.builds
      .start("p1", "s1", { branch: "main" })
      .catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toContain("outcome is unknown");
    expect(error.message).toContain(`GET ${BUILD_PATH}`);
    expect(t.server.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("a connection reset after sending is not retried and reports an unknown outcome", async () => {
    t.server.on("POST", "/v1/projects/p1/jobs/j1/runs", () => ({ reset: true }));
    const error = (await t.client.jobs.run("p1", "j1").catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.outcomeUnknown).toBe(true);
    expect(t.server.requests).toHaveLength(1);
  });

  it("a response that never comes is not retried and reports an unknown outcome", async () => {
    const quick = createClient({ baseUrl: t.server.url, token: TOKEN, timeoutMs: 200, ...FAST });
    t.server.on("POST", "/v1/templates/t1/runs", () => ({ delayMs: 1_000 }));
    const error = (await quick.templates.run("t1").catch((e: unknown) => e)) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.outcomeUnknown).toBe(true);
    expect(t.server.requests).toHaveLength(1);
    await quick.close();
  });

  it("a refused connection is retried, for reads and for starts alike, and the start lands once", async () => {
    const port = await freePort();
    const late = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      token: TOKEN,
      retryBaseDelayMs: 150,
      retryMaxDelayMs: 300,
      maxRetries: 6,
    });
    let posts = 0;
    const target = createServer((req, res) => {
      if (req.method === "POST") posts++;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ data: build("PENDING") }));
    });
    // Nothing listens at first: the first attempts are refused, then the platform comes up.
    setTimeout(() => target.listen(port, "127.0.0.1"), 250);
    const started = await late.builds.start("p1", "s1", { branch: "main" });
    expect(started.status).toBe("PENDING");
    expect(posts).toBe(1);
    await late.close();
    target.close();
  });

  it("a refused connection that never recovers ends in a ConnectionError that says no connection was made", async () => {
    const port = await freePort();
    const dead = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, ...FAST });
    const error = (await dead.builds
      .start("p1", "s1", { branch: "main" })
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.outcomeUnknown).toBe(false);
    expect(error.message).toContain("no connection was made");
    // Which API URL was tried: a wrong api-url is the usual cause.
    expect(error.message).toContain(`ECONNREFUSED at http://127.0.0.1:${port} `);
    await dead.close();
  });
});
