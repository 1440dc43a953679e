import { describe, expect, it } from "vitest";
import { useEmulator } from "../helpers.js";

// Spec 5 (authentication), 7 (errors), 8 (limits) and beyond-the-seed §2 and §3.

const emu = useEmulator({ speed: 0, rateLimit: 5 });

describe("authentication (5)", () => {
  it("answers 401 without a token and with an unknown one, in the error body", async () => {
    for (const token of [null, "cwp_nope"]) {
      const answer = await emu.api("GET", "/v1/projects", { token });
      expect(answer.status).toBe(401);
      expect(answer.body.error).toMatchObject({
        status: 401,
        message: expect.any(String),
        id: expect.stringMatching(/^err_/),
      });
    }
  });

  it("limits a team token to its team's projects and refuses another team's twin", async () => {
    const token = emu.fixtures.tokens.teamViaOrg;
    const ids = (await emu.api("GET", "/v1/projects", { token })).body.data.projects.map(
      (p: { id: string }) => p.id,
    );
    expect(ids.every((id: string) => id.startsWith("platform-"))).toBe(true);
    expect((await emu.api("GET", "/v1/projects/data-web/addons/db", { token })).status).toBe(404);
    expect((await emu.api("GET", "/v1/teams/data/projects", { token })).status).toBe(403);
  });
});

describe("errors (7, beyond-the-seed §2)", () => {
  it("answers unknown paths with a JSON 404 and a known path with another method with 405", async () => {
    const unknown = await emu.api("GET", "/v1/nothing/here");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toMatch(/json/);
    expect((await emu.api("PUT", "/v1/projects")).status).toBe(405);
  });

  it("refuses malformed JSON, another content type and bodies over 1 MiB with a 4xx", async () => {
    const path = "/v1/projects/platform-web/jobs/migrate/runs";
    expect((await emu.api("POST", path, { body: "{not json" })).status).toBe(400);
    expect(
      (await emu.api("POST", path, { body: "a=b", headers: { "content-type": "text/plain" } })).status,
    ).toBe(415);
    const huge = await emu.api("POST", path, {
      body: JSON.stringify({ runtimeEnvironment: { A: "x".repeat(1_100_000) } }),
    });
    expect(huge.status).toBe(413);
  });

  it("names every failing field in details", async () => {
    const answer = await emu.api("POST", "/v1/projects/platform-web/secrets", {
      body: { name: "x", secretType: "all", priority: -1, extra: true },
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.error.details)).toEqual(
      expect.arrayContaining(["body.name", "body.secretType", "body.priority", "body"]),
    );
  });
});

describe("rate limit (8, beyond-the-seed §3)", () => {
  it("sends the three headers on every response and 429 once the hour's budget is spent", async () => {
    const first = await emu.api("GET", "/v1/projects");
    expect(first.headers.get("x-ratelimit-limit")).toBe("5");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("4");
    expect(first.headers.get("x-ratelimit-reset")).toBe("3600");
    for (let i = 0; i < 4; i += 1) await emu.api("GET", "/v1/projects");
    const spent = await emu.api("GET", "/v1/projects");
    expect(spent.status).toBe(429);
    expect(spent.headers.get("x-ratelimit-remaining")).toBe("0");
    // Accounts are separate: another team still has its budget.
    expect((await emu.api("GET", "/v1/projects", { token: emu.fixtures.tokens.teamOwnBilling })).status).toBe(
      200,
    );
    await emu.advance(1800);
    expect((await emu.api("GET", "/v1/projects")).headers.get("x-ratelimit-reset")).toBe("1800");
    await emu.advance(1800);
    expect((await emu.api("GET", "/v1/projects")).status).toBe(200);
  });
});
