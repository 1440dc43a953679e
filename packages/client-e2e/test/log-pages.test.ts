import { type LogLine, logRangePages } from "@cwp/client";
import { describe, expect, it } from "vitest";
import { useEmulatedClient } from "./emulated-client.js";

// `lineLimit` is a request, not a promise (beyond-the-seed §5): against a platform that caps its
// pages at 1, 7 or 100 lines, every reader still reads every line once, also where lines that
// share a timestamp straddle a page edge.

const e = useEmulatedClient();
const P = "platform-web";
const LINES = Array.from({ length: 40 }, (_, i) => `build step ${i + 1}`);

/** A concluded build whose 40 lines are printed in pairs sharing a millisecond. */
async function buildWithPairedLines() {
  await e.control("POST", "outcomes", {
    kind: "build",
    durationSeconds: 10,
    logLines: LINES,
    linesPerInstant: 2,
  });
  const build = await e.client().builds.start(P, "web", { branch: "main" });
  await e.control("POST", "clock", { advanceSeconds: 20 });
  const createdAt = Date.parse(String(build.createdAt));
  return {
    id: build.id,
    startTime: new Date(createdAt - 1000).toISOString(),
    endTime: new Date(createdAt + 20_000).toISOString(),
  };
}

const texts = (lines: LogLine[]) => lines.map((l) => String(l.log));
const collect = async (pages: AsyncIterable<LogLine[]>) => {
  const out: LogLine[] = [];
  for await (const page of pages) out.push(...page);
  return out;
};

describe.each([1, 7, 100])("a platform that answers at most %i log lines a request", (cap) => {
  it("the range reader reads every line once, forward and backward", async () => {
    const build = await buildWithPairedLines();
    await e.control("POST", "settings", { logPageCap: cap });
    const fetch = (q: object) => e.client().builds.logs(P, "web", { ...q, buildId: build.id });
    const range = { startTime: build.startTime, endTime: build.endTime, pageSize: 1000 };
    expect(texts(await collect(logRangePages(fetch, range)))).toEqual(LINES);
    expect(texts(await collect(logRangePages(fetch, { ...range, direction: "backward" })))).toEqual(
      LINES.toReversed(),
    );
  });

  it("the follower reads every line once, and nothing twice when asked again", async () => {
    const build = await buildWithPairedLines();
    await e.control("POST", "settings", { logPageCap: cap });
    const follower = e.client().builds.followLogs(P, "web", build.id, { startTime: build.startTime });
    expect(texts(await follower.next())).toEqual(LINES);
    expect(await follower.next()).toEqual([]);
  });

  it("service logs, two replicas printing at each instant, come whole", async () => {
    const now = Date.parse(((await e.control("GET", "clock")) as { now: string }).now);
    const range = {
      startTime: new Date(now - 120_000).toISOString(),
      endTime: new Date(now - 10_000).toISOString(),
      pageSize: 1000,
    };
    const fetch = (q: object) => e.client().observability.serviceLogs(P, "web", q);
    const whole = await collect(logRangePages(fetch, range));
    expect(whole.length).toBeGreaterThanOrEqual(40);
    expect(new Set(whole.map((l) => l.ts)).size * 2).toBe(whole.length);
    await e.control("POST", "settings", { logPageCap: cap });
    expect(await collect(logRangePages(fetch, range))).toEqual(whole);
  });
});

describe("what reading on past a short page costs", () => {
  it("one request more than the pages: the one that brings nothing new", async () => {
    const build = await buildWithPairedLines();
    await e.control("POST", "settings", { logPageCap: 15 });
    await e.control("DELETE", "requests");
    const fetch = (q: object) => e.client().builds.logs(P, "web", { ...q, buildId: build.id });
    const lines = await collect(logRangePages(fetch, { startTime: build.startTime, endTime: build.endTime }));
    expect(lines).toHaveLength(40);
    // Pages of 15 from each last timestamp (the pair at an edge comes again): 15, 14 new, 11 new,
    // then the page that brings nothing new.
    expect(await e.requests()).toHaveLength(4);
  });
});
