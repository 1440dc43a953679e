import { describe, expect, it } from "vitest";
import { createClient, RateLimitError } from "../src/index.js";
import { build, FAST, TOKEN, useScriptedPlatform } from "./helpers/scripted-server.js";

const t = useScriptedPlatform(FAST);

const limitHeaders = (remaining: number, reset: number) => ({
  "x-ratelimit-limit": "1000",
  "x-ratelimit-remaining": String(remaining),
  "x-ratelimit-reset": String(reset),
});
const spent = {
  status: 429,
  headers: limitHeaders(0, 1),
  body: { error: { status: 429, message: "rate limit exceeded" } },
};

describe("rate limit", () => {
  it("a 429 waits x-ratelimit-reset and then succeeds, even for a start-work request", async () => {
    t.server.on("POST", "/v1/projects/p1/services/s1/build", (_req, n) =>
      n === 1 ? spent : { headers: limitHeaders(999, 3600), body: { data: build("PENDING") } },
    );
    const startedAt = Date.now();
    const result = await t.client.builds.start("p1", "s1", { branch: "main" });
    expect(result.id).toBe("joyous-view-6290");
    const [first, second] = t.server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(t.client.rateLimit.remaining).toBe(999);
  });

  it("a request sent again is the request as it was made, whatever the caller changed since", async () => {
    t.server.on("POST", "/v1/projects/p1/services/s1/build", (_req, n) =>
      n === 1 ? spent : { headers: limitHeaders(999, 3600), body: { data: build("PENDING") } },
    );
    t.server.on("GET", "/v1/projects", (_req, n) =>
      n === 1 ? spent : { body: { data: { projects: [] }, pagination: { hasNextPage: false, count: 0 } } },
    );
    const input = { branch: "main" };
    const started = t.client.builds.start("p1", "s1", input);
    input.branch = "changed-after-the-call";
    await started;
    const query = { cursor: "c1" };
    const listed = t.client.projects.list(query);
    query.cursor = "changed-after-the-call";
    await listed;
    const [first, second, third, fourth] = t.server.requests;
    expect([first!.body, second!.body]).toEqual([{ branch: "main" }, { branch: "main" }]);
    expect([third!.query.get("cursor"), fourth!.query.get("cursor")]).toEqual(["c1", "c1"]);
  });

  it("once the budget is spent, the next request waits for the reset instead of drawing a 429", async () => {
    t.server.on("GET", "/v1/projects", (_req, n) => ({
      headers: n === 1 ? limitHeaders(0, 1) : limitHeaders(999, 3600),
      body: { data: { projects: [] }, pagination: { hasNextPage: false, count: 0 } },
    }));
    await t.client.projects.list();
    expect(t.client.rateLimit.remaining).toBe(0);
    await t.client.projects.list();
    const [first, second] = t.server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
    expect(t.server.requests).toHaveLength(2);
  });

  it("a wait that would pass the caller's deadline fails at once without sending", async () => {
    t.server.on("GET", "/v1/projects", () => ({
      headers: limitHeaders(0, 600),
      body: { data: { projects: [] }, pagination: { hasNextPage: false } },
    }));
    await t.client.projects.list();
    const error = (await t.client.projects
      .list({}, { deadline: Date.now() + 2_000 })
      .catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toContain("was not sent");
    expect(error.resetAt).toBeGreaterThan(Date.now() + 500_000);
    expect(t.server.requests).toHaveLength(1);
  });

  it("a wait longer than maxRateLimitWaitMs is refused", async () => {
    const impatient = createClient({ baseUrl: t.server.url, token: TOKEN, maxRateLimitWaitMs: 500, ...FAST });
    t.server.on("GET", "/v1/projects", () => ({ ...spent, headers: limitHeaders(0, 30) }));
    await expect(impatient.projects.list()).rejects.toBeInstanceOf(RateLimitError);
    expect(t.server.requests).toHaveLength(1);
    await impatient.close();
  });
});
