import { describe, expect, it } from "vitest";
import { createClient, IncompleteListError, type LogLine, logRangePages } from "../src/index.js";
import { FAST, TOKEN, useScriptedPlatform } from "./helpers/scripted-server.js";

// The live platform's odd days, one answer at a time: a line from the future, a list that loops,
// answers that cannot be read, statuses nobody listed, a restore listed late, a stale Date.

const t = useScriptedPlatform(FAST);
const fastPolling = { initialIntervalMs: 10, maxIntervalMs: 40 };
const ts = (second: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, second)).toISOString();

describe("a log line dated in the future", () => {
  /**
   * A platform that pages by when it took each line in (`at`), and shows the line's own `ts`: the
   * eleventh of 30 lines says 2099. Pages are 4 lines.
   */
  const lines = Array.from({ length: 30 }, (_, i) => ({
    at: ts(i),
    line: { containerId: "c", log: `line ${i}`, ts: i === 10 ? "2099-01-01T00:00:00.000Z" : ts(i) },
  }));
  const serve = () =>
    t.server.on("GET", "/v1/projects/p/services/s/build-logs", (req) => {
      const start = req.query.get("startTime") ?? "";
      const end = req.query.get("endTime") ?? "~";
      const limit = Number(req.query.get("lineLimit"));
      const page = lines.filter((l) => l.at >= start && l.at < end).slice(0, limit);
      return { body: { data: page.map((l) => l.line) } };
    });
  const texts = (read: LogLine[]) => read.map((l) => l.log);
  const all = lines.map((l) => l.line.log);

  it("reads every line of a range once: the line of 2099 moves nothing", async () => {
    serve();
    const read: LogLine[] = [];
    const fetch = (query: object) => t.client.builds.logs("p", "s", { ...query, buildId: "b" });
    for await (const page of logRangePages(fetch, { startTime: ts(0), endTime: ts(60), pageSize: 4 }))
      read.push(...page);
    expect(texts(read)).toEqual(all);
  });

  it("follows every line once while the work runs", async () => {
    serve();
    const follower = t.client.builds.followLogs("p", "s", "b", { startTime: ts(0), pageSize: 4 });
    const read = [...(await follower.next()), ...(await follower.next())];
    expect(texts(read)).toEqual(all);
  });
});

describe("a list that goes round", () => {
  it("stops on a cursor it was given before, with a warning, having read each page once", async () => {
    const warnings: string[] = [];
    const client = createClient({ baseUrl: t.server.url, token: TOKEN, onWarning: (w) => warnings.push(w) });
    const projects = (from: number) =>
      Array.from({ length: 2 }, (_, i) => ({ id: `p${from + i}`, uid: "0".repeat(24) }));
    // Page 1 leads to page 2, which leads back to page 1.
    t.server.on("GET", "/v1/projects", (req) => {
      const second = req.query.get("cursor") === "two";
      return {
        body: {
          data: { projects: projects(second ? 2 : 0) },
          pagination: { hasNextPage: true, cursor: second ? "one" : "two", count: 2 },
        },
      };
    });
    const ids: string[] = [];
    for await (const p of client.projects.iterate({ per_page: 2, cursor: "one" })) ids.push(p.id);
    expect(ids).toEqual(["p0", "p1", "p2", "p3"]);
    expect(t.server.requests).toHaveLength(2);
    expect(warnings).toEqual([
      expect.stringContaining("GET /v1/projects handed out a cursor it had handed out before"),
    ]);
    await client.close();
  });

  it("stops on a page that repeats the one before it under a new cursor", async () => {
    const warnings: string[] = [];
    const client = createClient({ baseUrl: t.server.url, token: TOKEN, onWarning: (w) => warnings.push(w) });
    t.server.on("GET", "/v1/teams", (_req, n) => ({
      body: {
        data: { teams: [{ id: "a", uid: "0".repeat(24) }] },
        pagination: { hasNextPage: true, cursor: `c${n}`, count: 1 },
      },
    }));
    const ids: string[] = [];
    for await (const team of client.teams.iterate({ per_page: 1 })) ids.push(team.id);
    expect(ids).toEqual(["a"]);
    expect(t.server.requests).toHaveLength(2);
    expect(warnings[0]).toContain("the same page twice");
    await client.close();
  });
});

describe("a list that must be read whole (wholeList: an export that replaces data)", () => {
  it("throws IncompleteListError, naming the list, where a listing would end with a warning", async () => {
    const warnings: string[] = [];
    const client = createClient({ baseUrl: t.server.url, token: TOKEN, onWarning: (w) => warnings.push(w) });
    t.server.on("GET", "/v1/projects", () => ({
      body: {
        data: { projects: [{ id: "p0", uid: "0".repeat(24) }] },
        pagination: { hasNextPage: true, cursor: "again", count: 1 },
      },
    }));
    const ids: string[] = [];
    const read = async () => {
      for await (const p of client.projects.iterate({ per_page: 1 }, { wholeList: true })) ids.push(p.id);
    };
    await expect(read()).rejects.toThrow(IncompleteListError);
    await expect(read()).rejects.toThrow(/GET \/v1\/projects .*could not be read whole/);
    expect(warnings).toEqual([]);
    await client.close();
  });

  it("a usage list that repeats its page under a new cursor stops the stream with IncompleteListError", async () => {
    const day = (d: number) => ({
      window: { start: `2026-05-0${d}T00:00:00Z`, end: `2026-05-0${d + 1}T00:00:00Z` },
      total: 1,
      paas: { teams: [] },
    });
    t.server.on("GET", "/v1/billing/usage", (_req, n) => ({
      body: {
        data: { currency: "USD", usage: [day(1), day(2)] },
        pagination: { hasNextPage: true, cursor: `c${n}` },
      },
    }));
    const query = {
      granularity: "day",
      startTime: 1_777_593_600,
      endTime: 1_778_198_400,
      perPage: 2,
    } as const;
    const seen: string[] = [];
    const read = async () => {
      for await (const entry of t.client.billing.streamUsage(query, { wholeList: true }))
        seen.push(String(entry.window?.start));
    };
    await expect(read()).rejects.toThrow(/GET \/v1\/billing\/usage answered the same page twice/);
    expect(t.server.requests).toHaveLength(2);
  });
});

describe("a usage list that gains a day at its head between pages", () => {
  const query = { granularity: "day", startTime: 1_777_593_600, endTime: 1_778_198_400, perPage: 2 } as const;
  const window = (d: number) => ({ start: `2026-05-0${d}T00:00:00Z`, end: `2026-05-0${d + 1}T00:00:00Z` });
  /** Days 1-2, then 2-3 (the second page starts one back), each entry's window before or after its teams. */
  const serve = (windowFirst: boolean) =>
    t.server.on("GET", "/v1/billing/usage", (_req, n) => {
      const day = (d: number) =>
        windowFirst
          ? { window: window(d), total: d, paas: { teams: [{ id: `t${d}` }] } }
          : { total: d, paas: { teams: [{ id: `t${d}` }] }, window: window(d) };
      return {
        body: {
          data: { currency: "USD", usage: n === 1 ? [day(1), day(2)] : [day(2), day(3)] },
          pagination: n === 1 ? { hasNextPage: true, cursor: "c2" } : { hasNextPage: false },
        },
      };
    });

  it("hands each day over once where its window comes first", async () => {
    serve(true);
    const days: unknown[] = [];
    for await (const entry of t.client.billing.streamUsage(query, { wholeList: true }))
      days.push(entry.total);
    expect(days).toEqual([1, 2, 3]);
  });

  it("stops a whole read where the day read before is known only after its teams were handed over", async () => {
    serve(false);
    const read = async () => {
      for await (const _ of t.client.billing.streamUsage(query, { wholeList: true }));
    };
    await expect(read()).rejects.toThrow(/gave the bucket .*2026-05-02.* again on a later page/);
  });
});

describe("waits on odd answers", () => {
  const RUN = "/v1/templates/t/runs/tr-1";
  const run = (status: string, concluded = false) => ({ data: { id: "tr-1", status, concluded } });

  it("reads again after an answer that cannot be read, and goes on to the conclusion", async () => {
    const script = [{ raw: "<html>502</html>" }, { body: { data: null } }, { body: run("success", true) }];
    t.server.on("GET", RUN, (_req, n) => script[Math.min(n, script.length) - 1] ?? {});
    const final = await t.client.templates.waitForRun("t", "tr-1", fastPolling);
    expect(final.status).toBe("success");
  });

  it("gives up after three unreadable answers in a row, with the error", async () => {
    t.server.on("GET", RUN, () => ({ raw: "<html>proxy</html>" }));
    await expect(t.client.templates.waitForRun("t", "tr-1", fastPolling)).rejects.toThrow(
      /answered 200 with an HTML page, not the API.s JSON/,
    );
    expect(t.server.requests).toHaveLength(3);
  });

  it("waits through a status nobody listed, saying so once", async () => {
    const script = ["running", "REHYDRATING", "REHYDRATING", "success"];
    t.server.on("GET", RUN, (_req, n) => ({ body: run(script[n - 1] ?? "success", n >= 4) }));
    const unknown: string[] = [];
    const final = await t.client.templates.waitForRun("t", "tr-1", {
      ...fastPolling,
      onUnknownStatus: (status) => unknown.push(status),
    });
    expect(final.status).toBe("success");
    expect(unknown).toEqual(["REHYDRATING"]);
  });

  it("a restore the list does not show yet is read again, not a failure", async () => {
    const restores = "/v1/projects/p/addons/a/backups/b/restores";
    t.server.on("GET", restores, (_req, n) =>
      n === 1
        ? { status: 404, body: { error: { status: 404, message: "no restores yet" } } }
        : n === 2
          ? { body: { data: { restores: [] }, pagination: { hasNextPage: false } } }
          : { body: { data: { restores: [{ id: "r1", status: "completed" }] } } },
    );
    const seen: string[] = [];
    const final = await t.client.addons.waitForRestore("p", "a", "b", "r1", {
      ...fastPolling,
      onStatus: (s) => seen.push(s),
    });
    expect(final.status).toBe("completed");
    expect(seen).toEqual(["not listed yet", "completed"]);
  });

  it("a restart answered with a Date two days old still waits for the new rollout", async () => {
    const now = Date.now();
    const old = new Date(now - 10 * 60_000).toISOString();
    const later = () => new Date(Date.now() + 1000).toISOString();
    t.server.on("POST", "/v1/projects/p/services/web/restart", () => ({
      headers: { date: new Date(now - 2 * 86_400_000).toUTCString() },
    }));
    t.server.on("GET", "/v1/projects/p/services/web", (_req, n) => {
      const deployment =
        n <= 3
          ? { status: "COMPLETED", lastTransitionTime: old }
          : { status: "COMPLETED", lastTransitionTime: later() };
      return { body: { data: { id: "web", status: { deployment } } } };
    });
    const receipt = await t.client.services.restart("p", "web");
    // restarted-at stays the platform's word (logs are read on its clock); the wait does not trust it.
    expect(receipt.restartedAt).toBe(Math.floor((now - 2 * 86_400_000) / 1000) * 1000);
    expect(Math.abs(receipt.notBefore - now)).toBeLessThan(5000);
    await t.client.services.waitForRestart("p", "web", receipt, fastPolling);
    expect(t.server.requests.filter((r) => r.method === "GET").length).toBeGreaterThanOrEqual(4);
  });
});
