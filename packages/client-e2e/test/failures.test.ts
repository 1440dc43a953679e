import { ServerError, UnexpectedResponseError } from "@cwp/client";
import { describe, expect, it } from "vitest";
import { useEmulatedClient } from "./emulated-client.js";

// The failures the emulator injects (its faults), met by the client's retries: reads are tried
// again, work is never started twice.

const e = useEmulatedClient();
const BUILDS = "/v1/projects/platform-web/services/web/build";
const fault = (f: Record<string, unknown>) => e.control("POST", "faults", f);
const sent = async (method: string, path: string) =>
  (await e.requests()).filter((r) => r.method === method && r.path === path).length;

describe("reads", () => {
  it("are tried again after 503s and a dropped connection, and succeed", async () => {
    await fault({ method: "GET", path: "/v1/projects", status: 503, times: 2 });
    await fault({ method: "GET", path: "/v1/projects", reset: true, times: 1 });
    const page = await e.run(() => e.client().projects.list());
    expect(page.items.length).toBeGreaterThan(0);
    expect(await sent("GET", "/v1/projects")).toBe(4);
  });

  it("report a body that is not JSON as an unexpected response, naming the request", async () => {
    await fault({ method: "GET", path: "/v1/projects", malformed: true, times: 10 });
    const error = await e.run(() => e.client({ maxRetries: 0 }).projects.list()).catch((x) => x);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toMatch(/GET \/v1\/projects/);
  });

  it("carry the platform's error id into the message", async () => {
    await fault({
      method: "GET",
      path: "/v1/projects",
      status: 500,
      body: { error: { status: 500, message: "database unavailable", id: "err-7f3a" } },
      times: 10,
    });
    const error = await e.run(() => e.client({ maxRetries: 1 }).projects.list()).catch((x) => x);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toMatch(/database unavailable/);
    expect(error.message).toMatch(/err-7f3a/);
  });
});

describe("starts", () => {
  it("are sent once when the answer is lost after the platform acted: the outcome is unknown", async () => {
    await fault({ method: "POST", path: BUILDS, status: 503, after: true });
    const error = await e
      .run(() => e.client().builds.start("platform-web", "web", { branch: "main" }))
      .catch((x) => x);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toMatch(/latest builds/);
    expect(await sent("POST", BUILDS)).toBe(1);
    // The platform did start it: the list the message points at shows it.
    expect((await e.client().builds.list("platform-web", "web")).items).toHaveLength(1);
  });

  it("are sent again after a 429, which the platform did not act on", async () => {
    await fault({ method: "POST", path: BUILDS, status: 429, headers: { "x-ratelimit-reset": "30" } });
    const build = await e.run(() => e.client().builds.start("platform-web", "web", { branch: "main" }));
    expect(build.status).toBe("PENDING");
    expect(await sent("POST", BUILDS)).toBe(2);
    expect((await e.client().builds.list("platform-web", "web")).items).toHaveLength(1);
  });
});
