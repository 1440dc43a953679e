import { createClient, ServerError } from "@cwp/client";
import { describe, expect, it } from "vitest";
import { useEmulator } from "../helpers.js";

// The control plane (ARCHITECTURE.md, "The emulator"): fixtures, reset, clock, faults, outcomes, requests.

const emu = useEmulator({ speed: 0 });
const RUNS = "/v1/projects/platform-web/jobs/migrate/runs";

describe("/_emulator", () => {
  it("fixtures describe the world the architecture promises", () => {
    const f = emu.fixtures;
    expect(Object.keys(f.tokens).sort()).toEqual(["org", "readOnly", "teamOwnBilling", "teamViaOrg"]);
    expect(f.teams.map((t) => t.billing).sort()).toEqual(["organisation", "organisation", "own"]);
    expect(new Set(f.services.map((s) => s.kind))).toEqual(new Set(["build", "combined", "deployment"]));
    expect(f.jobs.some((j) => j.paused)).toBe(true);
    expect(f.addons.every((a) => a.uid.length === 24)).toBe(true);
    expect(f.addons[0]!.backups.length).toBeGreaterThan(0);
    expect(f.harnesses.length).toBeGreaterThan(0);
    expect(f.domains[0]!.subdomains).toContain("api");
  });

  it("reset restores the seeded world", async () => {
    await emu.api("POST", "/v1/projects/platform-web/jobs/nightly-report/resume", { body: {} });
    await emu.control("POST", "reset");
    expect(
      (await emu.control("GET", "fixtures")).body.jobs.find(
        (j: { id: string; projectId: string }) => j.id === "nightly-report" && j.projectId === "platform-web",
      ).paused,
    ).toBe(true);
    expect((await emu.control("GET", "requests")).body.requests).toEqual([]);
  });

  it("faults answer a status a number of times, then the platform answers again", async () => {
    await emu.control("POST", "faults", { method: "GET", path: "/v1/projects", status: 503, times: 2 });
    expect((await emu.api("GET", "/v1/projects")).status).toBe(503);
    expect((await emu.api("GET", "/v1/projects")).status).toBe(503);
    expect((await emu.api("GET", "/v1/projects")).status).toBe(200);
  });

  it("an `after` fault lets the start act and hides the answer: the client reports outcome unknown, once", async () => {
    await emu.control("POST", "faults", { method: "POST", path: RUNS, status: 503, after: true });
    const client = createClient({ baseUrl: emu.url, token: emu.fixtures.tokens.org });
    const error = await client.jobs.run("platform-web", "migrate", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).outcomeUnknown).toBe(true);
    const posts = (await emu.control("GET", "requests")).body.requests.filter(
      (r: { method: string }) => r.method === "POST",
    );
    expect(posts).toHaveLength(1);
    expect((await emu.api("GET", RUNS)).body.data.runs).toHaveLength(1);
    await client.close();
  });

  it("faults can reset the connection, send a malformed body, or delay", async () => {
    await emu.control("POST", "faults", [
      { path: "/v1/teams", reset: true },
      { path: "/v1/projects*", malformed: true },
    ]);
    await expect(emu.api("GET", "/v1/teams")).rejects.toThrow();
    const malformed = await emu.api("GET", "/v1/projects");
    expect(typeof malformed.body).toBe("string");
    await emu.control("POST", "faults", { path: "/v1/teams", delayMs: 150 });
    const started = Date.now();
    expect((await emu.api("GET", "/v1/teams")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("a request held by a delay across a reset never acts on the new world", async () => {
    const runs = "/v1/projects/platform-web/jobs/migrate/runs";
    const listed = async () => ((await emu.api("GET", runs)).body as { data: { runs: unknown[] } }).data.runs;
    const before = (await listed()).length;
    await emu.control("POST", "faults", { method: "POST", path: runs, delayMs: 400 });
    const held = emu.api("POST", runs, { body: {} }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await emu.control("POST", "reset");
    expect(await held).toBeInstanceOf(Error);
    expect(await listed()).toHaveLength(before);
    expect((await emu.control("GET", "requests")).body.requests).toEqual([
      expect.objectContaining({ method: "GET", path: runs }),
    ]);
  });

  it("refuses a malformed control request naming the field", async () => {
    const answer = await emu.control("POST", "outcomes", { kind: "spaceship" });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toHaveProperty(["body.kind"]);
  });

  it("requests records method, path, query, status and time", async () => {
    await emu.api("GET", "/v1/projects", { query: { per_page: 2 } });
    const [entry] = (await emu.control("GET", "requests")).body.requests;
    expect(entry).toMatchObject({
      method: "GET",
      path: "/v1/projects",
      query: { per_page: "2" },
      status: 200,
      time: expect.any(String),
    });
  });
});
