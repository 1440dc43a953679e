import { Agent } from "undici";
import { describe, expect, it } from "vitest";
import { ConnectionError, createClient, RateLimitError, TimeoutError } from "../src/index.js";
import { FAST, TOKEN, useScriptedPlatform } from "./helpers/scripted-server.js";

// A call never outlives its deadline (or the client's): not through a body that trickles in, not
// through a start that hangs; and an urgent call goes out with the budget spent.

const t = useScriptedPlatform(FAST);
const BUILD_PATH = "/v1/projects/p1/services/s1/build";

describe("calls bounded by a deadline", () => {
  it("a body that trickles in ends at the client's deadline, not when the body does", async () => {
    t.server.on("GET", "/v1/projects", () => ({
      body: { data: { projects: [] }, pagination: { hasNextPage: false, count: 0 }, pad: "x".repeat(200) },
      trickleMs: 20,
    }));
    const begun = Date.now();
    const bounded = createClient({ baseUrl: t.server.url, token: TOKEN, ...FAST, deadline: begun + 500 });
    const error = await bounded.projects.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - begun).toBeLessThan(1500);
    await bounded.close();
  });

  it("a start that hangs ends at the client's deadline, with an unknown outcome", async () => {
    t.server.on("POST", BUILD_PATH, () => ({ delayMs: 5_000 }));
    const begun = Date.now();
    const bounded = createClient({ baseUrl: t.server.url, token: TOKEN, ...FAST, deadline: begun + 400 });
    const error = (await bounded.builds
      .start("p1", "s1", { branch: "main" })
      .catch((e: unknown) => e)) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toMatch(/the request was sent at \d{4}-/);
    expect(Date.now() - begun).toBeLessThan(1500);
    expect(t.server.requests).toHaveLength(1);
    await bounded.close();
  });

  it("a call queued behind another in the connection pool ends at its deadline all the same", async () => {
    t.server.on("GET", "/v1/projects", () => ({ delayMs: 3_000 }));
    const pool = new Agent({ connections: 1 });
    const client = createClient({ baseUrl: t.server.url, token: TOKEN, ...FAST, dispatcher: pool });
    const first = client.projects.list().catch((e: unknown) => e);
    const begun = Date.now();
    const queued = await client.projects.list({}, { deadline: begun + 300 }).catch((e: unknown) => e);
    expect(queued).toBeInstanceOf(TimeoutError);
    expect(Date.now() - begun).toBeLessThan(1_000);
    // The one connection was busy throughout: the queued call never reached the platform.
    expect(t.server.requests).toHaveLength(1);
    await pool.destroy();
    await first;
  });

  it("an urgent call goes out with the budget spent; another waits for the reset", async () => {
    const spent = { "x-ratelimit-limit": "1000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "60" };
    t.server.on("GET", "/v1/projects", () => ({
      headers: spent,
      body: { data: { projects: [] }, pagination: { hasNextPage: false, count: 0 } },
    }));
    t.server.on("DELETE", `${BUILD_PATH}/b1`, () => ({ headers: spent, body: { data: {} } }));
    await t.client.projects.list();
    const deadline = Date.now() + 1000;
    const held = await t.client.builds.abort("p1", "s1", "b1", { deadline }).catch((e: unknown) => e);
    expect(held).toBeInstanceOf(RateLimitError);
    expect(t.server.requests.filter((r) => r.method === "DELETE")).toHaveLength(0);
    await t.client.builds.abort("p1", "s1", "b1", { deadline, urgent: true });
    expect(t.server.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
  });

  it("a TLS handshake that fails sent nothing: a start is not reported as an unknown outcome", async () => {
    // https:// to a plain HTTP server: the handshake fails before any request is sent.
    const tls = createClient({ baseUrl: t.server.url.replace("http:", "https:"), token: TOKEN, ...FAST });
    const error = (await tls.builds
      .start("p1", "s1", { branch: "main" })
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.outcomeUnknown).toBe(false);
    expect(error.message).toContain("no connection was made");
    await tls.close();
  });
});
