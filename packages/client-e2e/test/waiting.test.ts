import { WaitTimeoutError } from "@cwp/client";
import { describe, expect, it } from "vitest";
import { useEmulatedClient } from "./emulated-client.js";

// Every waiter against the emulator's state machines, on its virtual clock: how long a wait took
// and how many requests it spent are exact.

const e = useEmulatedClient();
const P = "platform-web";
const outcome = (o: Record<string, unknown>) => e.control("POST", "outcomes", o);
const gets = async (path: string) =>
  (await e.requests()).filter((r) => r.method === "GET" && r.path === path).length;

describe("waiters", () => {
  it("wait for a 20-minute build, noticing its end within the 10 s cap", async () => {
    await outcome({ kind: "build", durationSeconds: 1200 });
    const c = e.client();
    const build = await e.run(() => c.builds.start(P, "web", { branch: "main" }));
    const startedAt = Date.parse(String(build.createdAt));
    const final = await e.run(() => c.builds.waitFor(P, "web", build.id, { timeoutMs: 3_600_000 }));
    expect(final).toMatchObject({ status: "SUCCESS", concluded: true, success: true });
    const late = e.time.now() - (startedAt + 1_200_000);
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThanOrEqual(10_000);
    expect(await gets(`/v1/projects/${P}/services/web/build/${build.id}`)).toBeLessThan(135);
  });

  it("with the service's history, spend at most 15 requests and notice the end sooner", async () => {
    const c = e.client();
    await e.run(async () => {
      for (const seconds of [590, 600, 610, 605]) {
        await outcome({ kind: "build", durationSeconds: seconds });
        await c.builds.start(P, "web", { branch: "main" });
        await e.time.sleep(seconds * 1000 + 1000);
      }
    });
    await outcome({ kind: "build", durationSeconds: 603 });
    await e.control("DELETE", "requests");
    const startedAt = e.time.now();
    const build = await e.run(() => c.builds.start(P, "web", { branch: "main" }));
    const final = await e.run(async () =>
      c.builds.waitFor(P, "web", build.id, {
        startedAt,
        expectedDurationsMs: await c.builds.recentDurations(P, "web"),
      }),
    );
    expect(final.status).toBe("SUCCESS");
    const reads = (await e.requests()).filter((r) => r.method === "GET").length;
    expect(reads).toBeLessThanOrEqual(15);
    expect(e.time.now() - (Date.parse(String(build.createdAt)) + 603_000)).toBeLessThan(5_000);
  });

  it("history leaves out the run waited on, when it concluded before the history was read", async () => {
    const c = e.client();
    await outcome({ kind: "build", durationSeconds: 300 });
    const earlier = await c.builds.start(P, "web", { branch: "main" });
    await e.control("POST", "clock", { advanceSeconds: 301 });
    await outcome({ kind: "build", durationSeconds: 1 });
    const build = await c.builds.start(P, "web", { branch: "main" });
    await e.control("POST", "clock", { advanceSeconds: 2 });
    const all = await c.builds.recentDurations(P, "web");
    const before = await c.builds.recentDurations(P, "web", { except: build.id });
    expect(all).toHaveLength(2);
    expect(before).toHaveLength(1);
    expect(before[0]).toBeGreaterThan(299_000);
    expect(earlier.id).not.toBe(build.id);
  });

  it("wait for a job run, a template run and an addon upgrade to conclude", async () => {
    const c = e.client();
    await outcome({ kind: "jobRun", durationSeconds: 300, succeed: false });
    const run = await e.run(() => c.jobs.run(P, "migrate"));
    expect(await e.run(() => c.jobs.waitForRun(P, "migrate", run.id))).toMatchObject({
      status: "FAILED",
      concluded: true,
    });
    const templateRun = await e.run(() => c.templates.run("release", { arguments: {} }));
    expect((await e.run(() => c.templates.waitForRun("release", templateRun.id))).status).toBe("success");
    await e.run(() => c.addons.upgrade(P, "db", "17.0"));
    const addon = await e.run(() => c.addons.waitForUpgrade(P, "db", "17.0"));
    expect(addon.spec?.config?.versionTag).toBe("17.0");
  });

  it("wait for a restore, and for a restart past the previous rollout's COMPLETED", async () => {
    const c = e.client();
    const { restoreId } = await e.run(() => c.addons.restoreBackup(P, "db", "db-live-1"));
    expect((await e.run(() => c.addons.waitForRestore(P, "db", "db-live-1", restoreId))).status).toBe(
      "completed",
    );
    await outcome({ kind: "restart", durationSeconds: 120 });
    const receipt = await e.run(() => c.services.restart(P, "web"));
    const service = await e.run(() => c.services.waitForRestart(P, "web", receipt));
    expect(service.status?.deployment?.status).toBe("COMPLETED");
    // Not the stale COMPLETED of the moment after the request: the new rollout's, 120 s later.
    expect(e.time.now() - receipt.restartedAt).toBeGreaterThanOrEqual(120_000);
  });

  it("end at the deadline with the last state seen", async () => {
    await outcome({ kind: "build", durationSeconds: 3600 });
    const c = e.client();
    const build = await e.run(() => c.builds.start(P, "web", { branch: "main" }));
    const error = await e
      .run(() => c.builds.waitFor(P, "web", build.id, { timeoutMs: 120_000 }))
      .catch((x) => x);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error.last).toMatchObject({ id: build.id, concluded: false });
  });
});
