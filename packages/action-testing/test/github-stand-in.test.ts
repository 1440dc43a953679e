import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAIN_SHA, READ_ONLY_TOKEN, type StandIn, startGitHubStandIn } from "../src/index.js";

// The stand-in answers as GitHub documents, and a request GitHub's description would refuse is
// refused and kept as a violation: checked here with plain HTTP, as any client would send it.

const TOKEN = "ghs_stand_in_test_token";
let github: StandIn;
beforeAll(async () => {
  github = await startGitHubStandIn(TOKEN);
});
afterAll(() => github.close());

async function call(method: string, path: string, body?: unknown, token = TOKEN) {
  const response = await fetch(`${github.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: GitHub's JSON, read by each test as it needs.
  const answer: any = await response.json();
  return { status: response.status, body: answer, link: response.headers.get("link") };
}
const deploy = (body: Record<string, unknown>) => call("POST", "/repos/acme/shop/deployments", body);
const violations = () => github.violations.splice(0);

describe("GitHub stand-in: deployments", () => {
  it("answers 409 while the commit's checks are pending, unless required_contexts is []", async () => {
    const refused = await deploy({ ref: MAIN_SHA, environment: "staging" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`Conflict: Commit status checks failed for ${MAIN_SHA}.`);
    const created = await deploy({ ref: MAIN_SHA, environment: "staging", required_contexts: [] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      sha: MAIN_SHA,
      environment: "staging",
      production_environment: false,
    });
    expect(violations()).toEqual([]);
  });

  it("merges the default branch into a branch it is asked to deploy, unless auto_merge is false", async () => {
    const merged = await deploy({ ref: "feature/checkout", required_contexts: [] });
    expect(merged.status).toBe(202);
    expect(merged.body.message).toBe("Auto-merged main into feature/checkout on deployment.");
    const created = await deploy({ ref: "feature/checkout", auto_merge: false, required_contexts: [] });
    expect(created.status).toBe(201);
    expect(violations()).toEqual([]);
  });

  it("refuses a request its description does not allow, and keeps it as a violation", async () => {
    const wrong = await deploy({ ref: 42, required_contexts: "none" });
    expect(wrong.status).toBe(422);
    expect(violations()).toEqual([
      expect.stringMatching(
        /POST \/repos\/acme\/shop\/deployments \(repos\/create-deployment\): body: \/ref must be string; \/required_contexts must be array/,
      ),
    ]);
    const unknown = await call("POST", "/repos/acme/shop/deployments/1/approve");
    expect(unknown.status).toBe(404);
    expect(violations()).toEqual([
      "POST /repos/acme/shop/deployments/1/approve: GitHub has no such operation",
    ]);
    const badState = await call("POST", "/repos/acme/shop/deployments/1/statuses", { state: "running" });
    expect(badState.status).toBe(422);
    expect(violations()[0]).toMatch(/\/state must be equal to one of the allowed values/);
  });

  it("refuses a status description over 140 characters, as GitHub does", async () => {
    const { body } = await deploy({ ref: MAIN_SHA, required_contexts: [], environment: "qa" });
    const status = (description: string) =>
      call("POST", `/repos/acme/shop/deployments/${body.id}/statuses`, { state: "success", description });
    expect((await status("x".repeat(141))).status).toBe(422);
    expect((await status("x".repeat(140))).status).toBe(201);
    expect(violations()).toEqual([]);
  });

  it("auto_inactive retires earlier successes only of environments neither production nor transient", async () => {
    const ids: Record<string, number[]> = { review: [], production: [] };
    for (const [environment, list] of Object.entries(ids))
      for (let i = 0; i < 2; i += 1) {
        const { body } = await deploy({ ref: MAIN_SHA, required_contexts: [], environment });
        await call("POST", `/repos/acme/shop/deployments/${body.id}/statuses`, { state: "success" });
        list.push(body.id);
      }
    const latest = async (id: number | undefined) =>
      (await call("GET", `/repos/acme/shop/deployments/${id}/statuses?per_page=1`)).body[0].state;
    expect(await latest(ids.review?.[0])).toBe("inactive");
    expect(await latest(ids.review?.[1])).toBe("success");
    expect(await latest(ids.production?.[0])).toBe("success");
    expect(violations()).toEqual([]);
  });

  it("pages lists newest first with a Link header, and refuses writes to a read-only token", async () => {
    const page = await call("GET", "/repos/acme/shop/deployments?environment=review&per_page=1");
    expect(page.body).toHaveLength(1);
    expect(page.link).toMatch(/page=2.*rel="next"/);
    const readOnly = await call("POST", "/repos/acme/shop/deployments", { ref: MAIN_SHA }, READ_ONLY_TOKEN);
    expect(readOnly).toMatchObject({
      status: 403,
      body: { message: "Resource not accessible by integration" },
    });
    expect(violations()).toEqual([]);
  });
});
