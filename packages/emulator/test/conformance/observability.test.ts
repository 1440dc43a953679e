import { createClient, logRangePages } from "@cwp/client";
import { describe, expect, it } from "vitest";
import { useEmulator } from "../helpers.js";

// Spec 2.12 and 4.7: every log and metric query parameter changes the answer as it should.

const emu = useEmulator({ speed: 0 });
const LOGS = "/v1/projects/platform-web/services/web/logs";
type Line = { containerId: string; log: string; ts: string };
const logs = async (query: Record<string, string | number>) =>
  (await emu.api("GET", LOGS, { query })).body.data as Line[];

describe("logs", () => {
  it("honour range, duration, lineLimit and direction", async () => {
    const end = new Date(await emu.now()).toISOString();
    const backward = await logs({ endTime: end, duration: 60, lineLimit: 1000 });
    expect(backward.length).toBe(24); // two replicas, a line every 5 s, for 60 s
    expect(backward[0]!.ts >= backward.at(-1)!.ts).toBe(true);
    const forward = await logs({ endTime: end, duration: 60, direction: "forward", lineLimit: 5 });
    expect(forward).toHaveLength(5);
    expect(forward[0]!.ts <= forward[4]!.ts).toBe(true);
    const start = new Date(Date.parse(end) - 30_000).toISOString();
    const ranged = await logs({ startTime: start, endTime: end });
    expect(ranged.every((l) => l.ts >= start && l.ts < end)).toBe(true);
  });

  it("filter by text and regular expression, included and excluded", async () => {
    const base = { duration: 86_400, lineLimit: 5000 };
    const all = await logs(base);
    const errors = await logs({ ...base, textIncludes: "ERROR" });
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((l) => l.log.includes("ERROR"))).toBe(true);
    expect((await logs({ ...base, textNotIncludes: "INFO" })).every((l) => !l.log.includes("INFO"))).toBe(
      true,
    );
    expect(
      (await logs({ ...base, regexIncludes: "^WARN .* \\d{3}ms$" })).every((l) => l.log.startsWith("WARN")),
    ).toBe(true);
    expect((await logs({ ...base, regexNotIncludes: "INFO|WARN" })).length).toBe(errors.length);
    expect(all.length).toBeGreaterThan(errors.length);
  });

  it("run filter patterns in linear time: one that backtracks for ever in JavaScript answers at once", async () => {
    const base = { duration: 86_400, lineLimit: 5000 };
    const started = Date.now();
    expect(await logs({ ...base, regexIncludes: "^(.+)+X$" })).toEqual([]);
    expect((await logs({ ...base, regexNotIncludes: "^(.+)+X$" })).length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(5000);
    // What RE2 cannot run in linear time is refused, naming the field.
    const lookahead = await emu.api("GET", LOGS, { query: { ...base, regexIncludes: "INFO(?= GET)" } });
    expect(lookahead.status).toBe(400);
    expect(JSON.stringify(lookahead.body)).toContain("query.regexIncludes");
  });

  it("are followed by the client's follower with no line lost or repeated across pages", async () => {
    const client = createClient({ baseUrl: emu.url, token: emu.fixtures.tokens.org });
    const now = await emu.now();
    const startTime = new Date(now - 120_000).toISOString();
    const follower = client.observability.followServiceLogs("platform-web", "web", {
      startTime,
      pageSize: 7,
    });
    const seen: Line[] = [];
    for (let i = 0; i < 60; i += 1) seen.push(...((await follower.next()) as Line[]));
    const whole = await logs({
      startTime,
      endTime: new Date(now + 1).toISOString(),
      direction: "forward",
      lineLimit: 5000,
    });
    expect(seen.map((l) => `${l.ts} ${l.containerId}`)).toEqual(whole.map((l) => `${l.ts} ${l.containerId}`));
    await client.close();
  });

  it("are read whole over a range by the client, forward and backward, in pages of any size", async () => {
    const client = createClient({ baseUrl: emu.url, token: emu.fixtures.tokens.org });
    const now = await emu.now();
    const range = { startTime: new Date(now - 300_000).toISOString(), endTime: new Date(now).toISOString() };
    const fetch = (q: Parameters<typeof client.observability.serviceLogs>[2]) =>
      client.observability.serviceLogs("platform-web", "web", q);
    const whole = await logs({ ...range, direction: "forward", lineLimit: 5000 });
    const key = (l: Line) => `${l.ts} ${l.containerId}`;
    for (const direction of ["forward", "backward"] as const) {
      const read: Line[] = [];
      for await (const page of logRangePages(fetch, { ...range, direction, pageSize: 7 }))
        read.push(...(page as Line[]));
      const expected = direction === "forward" ? whole : [...whole].reverse();
      expect(read.map(key).sort(), direction).toEqual(expected.map(key).sort());
      expect(
        read.map((l) => l.ts),
        direction,
      ).toEqual(expected.map((l) => l.ts));
    }
    await client.close();
  });
});

describe("metrics", () => {
  it("answer range series at a resolution, single values at a time, for the selected types", async () => {
    const range = (
      await emu.api("GET", "/v1/projects/platform-web/services/web/metrics", {
        query: { metricTypes: ["cpu", "requests"], duration: 600 },
      })
    ).body.data;
    expect(Object.keys(range).sort()).toEqual(["cpu", "requests"]);
    expect(range.cpu.metricInfo).toMatchObject({ metricId: "cpu", metricUnit: "vCPU", metricResolution: 60 });
    expect(range.cpu.values).toHaveLength(2);
    expect(range.cpu.values[0].data.length).toBeGreaterThanOrEqual(10);
    const single = (
      await emu.api("GET", "/v1/projects/platform-web/addons/db/metrics", {
        query: { queryType: "single", time: "2026-01-01T00:00:00Z" },
      })
    ).body.data;
    expect(single.diskUsage.values[0].data).toHaveLength(1);
    expect(single.diskUsage.values[0].metadata.volumeId).toBeDefined();
  });
});
