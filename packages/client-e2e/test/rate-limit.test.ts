import { describe, expect, it } from "vitest";
import { useEmulatedClient } from "./emulated-client.js";

// The emulator's own limiter, small: the client holds requests until the window resets (on the
// virtual clock, an hour in no time) instead of drawing 429s, and waits pace themselves.

const e = useEmulatedClient({ rateLimit: 300 });

describe("the account's hourly budget", () => {
  it("once spent, holds the next request until the window resets instead of drawing a 429", async () => {
    const c = e.client({ maxRateLimitWaitMs: 2 * 3_600_000 });
    const began = e.time.now();
    await e.run(async () => {
      for (let i = 0; i < 310; i += 1) await c.teams.list();
    });
    const log = await e.requests();
    expect(log.filter((r) => r.path === "/v1/teams")).toHaveLength(310);
    expect(log.filter((r) => r.status === 429)).toHaveLength(0);
    expect(e.time.now() - began).toBeGreaterThanOrEqual(3_600_000);
  });

  it("lets three 10-to-20-minute builds stream their logs while waiting on 300 requests an hour, with no 429", async () => {
    const services = e.fixtures.services.filter((s: { kind: string }) => s.kind !== "deployment").slice(0, 3);
    for (const durationSeconds of [600, 900, 1200])
      await e.control("POST", "outcomes", { kind: "build", durationSeconds });
    let lines = 0;
    await Promise.all(
      services.map((s: { projectId: string; id: string }) =>
        e.run(async () => {
          const c = e.client();
          const build = await c.builds.start(s.projectId, s.id, { branch: "main" });
          const stop = new AbortController();
          const streaming = e.run(() =>
            c.builds
              .followLogs(s.projectId, s.id, build.id, { startTime: String(build.createdAt) })
              .stream({ signal: stop.signal, onLines: (l) => (lines += l.length), onError: () => undefined }),
          );
          const final = await c.builds.waitFor(s.projectId, s.id, build.id, { timeoutMs: 2 * 3_600_000 });
          stop.abort();
          await streaming;
          expect(final.status).toBe("SUCCESS");
        }),
      ),
    );
    expect((await e.requests()).filter((r) => r.status === 429)).toHaveLength(0);
    expect(lines).toBeGreaterThan(0);
  });
});
