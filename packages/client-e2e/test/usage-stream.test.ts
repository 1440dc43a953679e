import type { UsageEntry, UsagePart } from "@cwp/client";
import { describe, expect, it } from "vitest";
import { useEmulatedClient } from "./emulated-client.js";

// The usage list read as it arrives (billing.streamUsage, streamUsageParts), over real HTTP.

const env = useEmulatedClient();
const DAY = 86_400;
const today = () => Math.floor(Date.now() / 1000 / DAY) * DAY;
const days = (n: number) => ({ granularity: "day" as const, startTime: today() - n * DAY, endTime: today() });

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("billing.streamUsage", () => {
  it("gives the entries listUsage gives, page after page", async () => {
    const c = env.client();
    const whole: UsageEntry[] = [];
    for await (const entry of c.billing.iterateUsage({ ...days(12), perPage: 5 })) whole.push(entry);
    const pages: number[] = [];
    const streamed = await collect(
      c.billing.streamUsage({ ...days(12), perPage: 5 }, { onPage: ({ entries }) => pages.push(entries) }),
    );
    expect(whole).toHaveLength(12);
    expect(streamed).toEqual(whole);
    expect(pages).toEqual([5, 5, 2]);
  });

  it("in parts: per entry its head, each team, then the entry without its teams", async () => {
    const c = env.client();
    const whole = (await c.billing.listUsage({ ...days(2), perPage: 100 })).data.usage;
    const parts = await collect(c.billing.streamUsageParts({ ...days(2), perPage: 100 }));
    const expected: UsagePart[] = whole.flatMap((entry): UsagePart[] => [
      { kind: "head", window: entry.window, timestamp: undefined },
      ...(entry.paas.teams ?? []).map((team): UsagePart => ({ kind: "team", team })),
      { kind: "entry", entry: { ...entry, paas: { ...entry.paas, teams: [] } } },
    ]);
    expect(whole.every((e) => (e.paas.teams ?? []).length > 0)).toBe(true);
    expect(parts).toEqual(expected);
  });

  it("reads each team only down to the level asked for, the rest not parsed", async () => {
    const c = env.client();
    const whole = (await c.billing.listUsage({ ...days(2), perPage: 100 })).data.usage;
    const teamsOf = async (level: "teams" | "projects") =>
      (await collect(c.billing.streamUsageParts({ ...days(2), perPage: 100 }, { level }))).flatMap((part) =>
        part.kind === "team" ? [part.team] : [],
      );
    const wholeTeams = whole.flatMap((entry) => entry.paas.teams ?? []);
    expect(wholeTeams.some((team) => team.projects?.some((p) => (p.resources ?? []).length > 0))).toBe(true);
    expect(await teamsOf("projects")).toEqual(
      wholeTeams.map((team) => ({
        ...team,
        projects: team.projects?.map(({ resources: _, ...project }) => project),
      })),
    );
    expect(await teamsOf("teams")).toEqual(wholeTeams.map(({ projects: _, ...team }) => team));
  });

  it("reads a body that breaks off again from the same page, handing each entry over once", async () => {
    const c = env.client({ retryBaseDelayMs: 1, retryMaxDelayMs: 1 });
    const whole = (await c.billing.listUsage({ ...days(6), perPage: 100 })).data.usage;
    // The first answer breaks in the middle of its fourth entry.
    const cut = JSON.stringify(whole.slice(0, 3)).length + 300;
    await env.control("POST", "faults", { method: "GET", path: "/v1/billing/usage", breakAfterBytes: cut });
    // The retry's pause runs on the emulator's clock.
    const streamed = await env.run(() => collect(c.billing.streamUsage({ ...days(6), perPage: 100 })));
    expect(streamed).toEqual(whole);
    const reads = (await env.requests()).filter((r) => r.path === "/v1/billing/usage");
    expect(reads).toHaveLength(3); // listUsage, the broken answer, the one read again
  });

  it("stops the request when the reader stops early", async () => {
    const c = env.client();
    let read = 0;
    for await (const _ of c.billing.streamUsage({ ...days(30), perPage: 100 })) {
      read += 1;
      if (read === 2) break;
    }
    expect(read).toBe(2);
    // The connection is free for the next call.
    expect((await c.billing.listUsage({ ...days(1) })).data.usage).toHaveLength(1);
  });

  it("names the entry and field of an entry that does not match the API", async () => {
    const c = env.client();
    await env.control("POST", "faults", {
      method: "GET",
      path: "/v1/billing/usage",
      status: 200,
      body: {
        data: {
          currency: "USD",
          usage: [
            { paas: {}, total: 1 },
            { paas: { teams: [{ projects: [] }] }, total: 2 },
          ],
        },
        pagination: { hasNextPage: false },
      },
    });
    const seen: UsageEntry[] = [];
    const reading = (async () => {
      for await (const entry of c.billing.streamUsage(days(2))) seen.push(entry);
    })();
    await expect(reading).rejects.toThrow(/data\.usage\.1\.paas\.teams\.0\.id/);
    expect(seen).toHaveLength(1);
  });
});
