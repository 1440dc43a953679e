import { describe, expect, it } from "vitest";
import {
  AbortedError,
  createClient,
  PLATFORM_FAULT_READS,
  WaitTimeoutError,
  WaitUnreadableError,
} from "../src/index.js";
import { build, FAST, startScriptedServer, TOKEN, useScriptedPlatform } from "./helpers/scripted-server.js";

const t = useScriptedPlatform(FAST);

const fastPolling = { initialIntervalMs: 10, maxIntervalMs: 40 };
const BUILD = "/v1/projects/p/services/s/build/joyous-view-6290";

describe("waiters", () => {
  it("waits for a build through statuses it has never heard of, calling back once per change", async () => {
    const script = ["PENDING", "PENDING", "CLONING", "BRAND_NEW_STATUS", "BRAND_NEW_STATUS", "SUCCESS"];
    t.server.on("GET", BUILD, (_req, n) => {
      const status = script[Math.min(n, script.length) - 1]!;
      return { body: { data: build(status, status === "SUCCESS") } };
    });
    const seen: string[] = [];
    const final = await t.client.builds.waitFor("p", "s", "joyous-view-6290", {
      ...fastPolling,
      onStatus: (s) => seen.push(s),
    });
    expect(final.status).toBe("SUCCESS");
    expect(seen).toEqual(["PENDING", "CLONING", "BRAND_NEW_STATUS", "SUCCESS"]);
  });

  it("ends on concluded, not on the status: a failed build resolves with its status", async () => {
    t.server.on("GET", BUILD, () => ({ body: { data: build("CRASHED", true) } }));
    const final = await t.client.builds.waitFor("p", "s", "joyous-view-6290", fastPolling);
    expect(final.status).toBe("CRASHED");
    expect(final.success).toBe(false);
  });

  it("keeps polling through 503s and 429s", async () => {
    t.server.on("GET", "/v1/projects/p/jobs/j/runs/r1", (_req, n) => {
      if (n <= 5) return { status: n % 2 ? 503 : 429, headers: { "x-ratelimit-reset": "0" } };
      return { body: { data: { id: "r1", runName: "run", status: "SUCCESS", concluded: true } } };
    });
    const noRetry = createClient({ baseUrl: t.server.url, token: TOKEN, maxRetries: 0 });
    const run = await noRetry.jobs.waitForRun("p", "j", "r1", fastPolling);
    expect(run.status).toBe("SUCCESS");
    await noRetry.close();
  });

  /** Polls a build that never concludes for 1.5 s, each answer carrying `budget()`'s headers. */
  const pollsUnder = async (budget: () => { remaining: number; reset: number }) => {
    const local = await startScriptedServer();
    local.on("GET", BUILD, () => {
      const { remaining, reset } = budget();
      return {
        headers: {
          "x-ratelimit-limit": "1000",
          "x-ratelimit-remaining": String(remaining),
          "x-ratelimit-reset": String(reset),
        },
        body: { data: build("BUILDING") },
      };
    });
    const c = createClient({ baseUrl: local.url, token: TOKEN });
    await c.builds
      .waitFor("p", "s", "joyous-view-6290", { ...fastPolling, timeoutMs: 1_500 })
      .catch(() => undefined);
    await c.close();
    await local.close();
    return local.requests.length;
  };

  it("slows down when the rate-limit budget runs low", async () => {
    // Plenty of budget: polls every 10-40 ms (about 40). Five requests left for five seconds, to
    // be spent within 40% of that: one every 400 ms.
    expect(await pollsUnder(() => ({ remaining: 900, reset: 5 }))).toBeGreaterThan(10);
    expect(await pollsUnder(() => ({ remaining: 5, reset: 5 }))).toBeLessThanOrEqual(5);
  });

  it("takes its share of the account's budget: as planned alone, slower as others outspend it", async () => {
    // A thousand requests for 36 s: alone, the budget allows a poll every 15 ms, so the plan
    // (10-40 ms) rules. When others on the account spend 100 for each poll of ours, this client's
    // share allows one every 1.5 s.
    const spending = (perPoll: number) => {
      let left = 1000;
      return () => {
        left -= perPoll;
        return { remaining: left, reset: 36 };
      };
    };
    expect(await pollsUnder(spending(1))).toBeGreaterThan(10);
    expect(await pollsUnder(spending(101))).toBeLessThanOrEqual(4);
  });

  it("an abort mid-wait stops it at once", async () => {
    t.server.on("GET", BUILD, () => ({ body: { data: build("BUILDING") } }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const startedAt = Date.now();
    const error = await t.client.builds
      .waitFor("p", "s", "joyous-view-6290", {
        initialIntervalMs: 50,
        maxIntervalMs: 5_000,
        signal: controller.signal,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });

  it("a deadline ends the wait with the last state seen", async () => {
    t.server.on("GET", "/v1/templates/t/runs/tr", () => ({
      body: { data: templateRun("running", false) },
    }));
    const error = (await t.client.templates
      .waitForRun("t", "tr", { ...fastPolling, timeoutMs: 200 })
      .catch((e: unknown) => e)) as WaitTimeoutError;
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error.last as { status: string }).status).toBe("running");
  });

  describe("a wait the platform's failures end, not the work's time", () => {
    const noRetry = () => createClient({ baseUrl: t.server.url, token: TOKEN, maxRetries: 0 });
    const waited = (c: ReturnType<typeof createClient>) =>
      c.builds
        .waitFor("p", "s", "joyous-view-6290", { ...fastPolling, timeoutMs: 300 })
        .catch((e: unknown) => e);

    it("every status read failing up to the deadline is WaitUnreadableError, naming how many and with what", async () => {
      t.server.on("GET", BUILD, () => ({ status: 503 }));
      const c = noRetry();
      const error = (await waited(c)) as WaitUnreadableError;
      await c.close();
      expect(error).toBeInstanceOf(WaitUnreadableError);
      expect(error).not.toBeInstanceOf(WaitTimeoutError);
      const failed = error.failures.get("503") ?? 0;
      expect(failed).toBeGreaterThanOrEqual(PLATFORM_FAULT_READS);
      expect([...error.failures.keys()]).toEqual(["503"]);
      expect(error.status).toBe(503);
      expect(error.last).toBeUndefined();
      expect(error.message).toBe(
        `build joyous-view-6290 could not be read: all ${failed} of its status reads failed (503 to each) up to the deadline, the platform's fault rather than the work's time`,
      );
    });

    it("after statuses were read, counts the failed reads since the last one that was read", async () => {
      t.server.on("GET", BUILD, (_req, n) =>
        n <= 2 ? { body: { data: build("BUILDING") } } : { status: 502 },
      );
      const c = noRetry();
      const error = (await waited(c)) as WaitUnreadableError;
      await c.close();
      expect(error).toBeInstanceOf(WaitUnreadableError);
      expect((error.last as { status: string }).status).toBe("BUILDING");
      expect(error.message).toMatch(
        /^build joyous-view-6290 could not be read: its last \d+ status reads failed \(502 to each\) up to the deadline/,
      );
    });

    it("a read or two failing just before the deadline is still the work's time: WaitTimeoutError", async () => {
      let failing = false;
      t.server.on("GET", BUILD, () => (failing ? { status: 503 } : { body: { data: build("BUILDING") } }));
      const c = noRetry();
      setTimeout(() => {
        failing = true;
      }, 280).unref();
      const error = await waited(c);
      await c.close();
      expect(error).toBeInstanceOf(WaitTimeoutError);
    });
  });

  it("a restart counts only a COMPLETED transition later than the restart", async () => {
    const restartedAt = Date.now();
    t.server.on("POST", "/v1/projects/p/services/web/restart", () => ({
      headers: { date: new Date(restartedAt).toUTCString() },
    }));
    t.server.on("GET", "/v1/projects/p/services/web", (_req, n) => {
      const before = new Date(restartedAt - 60_000).toISOString();
      const after = new Date(restartedAt + 2_000).toISOString();
      const deployment =
        n === 1
          ? { status: "COMPLETED", lastTransitionTime: before }
          : n === 2
            ? { status: "IN_PROGRESS", lastTransitionTime: after }
            : { status: "COMPLETED", lastTransitionTime: after };
      return { body: { data: { id: "web", status: { deployment } } } };
    });
    const receipt = await t.client.services.restart("p", "web");
    const service = await t.client.services.waitForRestart("p", "web", receipt, fastPolling);
    expect(service.status?.deployment?.status).toBe("COMPLETED");
    expect(t.server.requests.filter((r) => r.method === "GET")).toHaveLength(3);
  });

  it("an addon upgrade ends when the addon runs at the new version", async () => {
    t.server.on("GET", "/v1/projects/p/addons/db", (_req, n) => ({
      body: { data: addon(n < 3 ? "upgrading" : "running", n < 3 ? "15" : "16") },
    }));
    const final = await t.client.addons.waitForUpgrade("p", "db", "16", fastPolling);
    expect(final.spec?.config?.versionTag).toBe("16");
  });

  it("a restore is found in the restores list and waited on to completion", async () => {
    t.server.on("GET", "/v1/projects/p/addons/db/backups/b1/restores", (_req, n) => ({
      body: {
        data: {
          restores: [
            { id: "old", status: "completed" },
            { id: "r2", status: n < 2 ? "in-progress" : "completed" },
          ],
        },
        pagination: { hasNextPage: false, count: 2 },
      },
    }));
    const restore = await t.client.addons.waitForRestore("p", "db", "b1", "r2", fastPolling);
    expect(restore.status).toBe("completed");
  });
});

function templateRun(status: string, concluded: boolean) {
  return {
    id: "tr",
    templateId: "t",
    name: "release",
    apiVersion: "v1.2",
    gitops: {
      vcsService: "github",
      repoUrl: "github.com/acme/app",
      branch: "main",
      filePath: "/templates/release.yaml",
    },
    spec: { kind: "Workflow" },
    status,
    concluded,
    createdAt: "2026-11-21T10:00:00Z",
    updatedAt: "2026-11-21T10:00:00Z",
  };
}

function addon(status: string, versionTag: string) {
  return {
    id: "db",
    uid: "c".repeat(24),
    name: "db",
    appId: "acme/p/db",
    tags: [],
    createdAt: "2026-01-01T00:00:00Z",
    status,
    spec: { type: "postgresql", config: { versionTag } },
    cluster: { id: "cl", name: "cluster" },
  };
}
