import type { CwpClient } from "@cwp/client";
import { describe, expect, it } from "vitest";
import { collect, useEmulatedClient } from "./emulated-client.js";

// The list contract: a list ends only where the platform says it ends (spec 2.1: `hasNextPage` is
// required; `cursor` is there when a next page exists). Every list the client walks is read whole
// however the platform pages it: pages of half what was asked (a page of 100 served as two of 50),
// pages of varying length below it, an empty page saying there is a next one before every page,
// and a list that gains an entry at its head between pages (its total changes under the reader:
// each later page starts with the last entry of the page before), whose entries are read once.
// The emulator serves each shape (POST /_emulator/settings `pageShape`); each list read in a shape
// must equal the same list read in whole pages. Logs have their own contract (log-pages.test.ts).

const e = useEmulatedClient();
const P = "platform-web";

/** A list as the client walks it, read to its end: what it held, in order. */
type Read = (c: CwpClient) => Promise<unknown[]>;

/** Work started through the API, so that the lists of builds, runs and restores have pages. */
async function startWork(c: CwpClient) {
  for (let i = 0; i < 5; i += 1) {
    await c.builds.start(P, "web", { branch: "main" });
    await c.jobs.run(P, "migrate");
    await c.templates.run("release", { arguments: { version: `1.0.${i}` } });
    await e.control("POST", "clock", { advanceSeconds: 600 });
  }
  for (let i = 0; i < 3; i += 1) {
    await c.addons.restoreBackup(P, "db", "db-live-1");
    await e.control("POST", "clock", { advanceSeconds: 3600 });
  }
}

const hour = 3600;
const week = async () => {
  const now = Math.floor(Date.parse(((await e.control("GET", "clock")) as { now: string }).now) / 1000);
  const end = now - (now % hour);
  return { startTime: end - 7 * 24 * hour, endTime: end };
};

const lists: Record<string, Read> = {
  teams: (c) => collect(c.teams.iterate({ per_page: 2 })),
  projects: (c) => collect(c.projects.iterate({ per_page: 2 })),
  "registry credentials": (c) => collect(c.integrations.iterateRegistries({ per_page: 2 })),
  "subdomain paths": (c) =>
    collect(c.networking.iterateSubdomainPaths("example.com", "api", { per_page: 2 })),
  builds: (c) => collect(c.builds.iterate(P, "web", { per_page: 2 })),
  "job runs": (c) => collect(c.jobs.iterateRuns(P, "migrate", { per_page: 2 })),
  "template runs": (c) => collect(c.templates.iterateRuns("release", { per_page: 2 })),
  restores: (c) => collect(c.addons.iterateRestores(P, "db", "db-live-1", { per_page: 2 })),
  invoices: (c) => collect(c.billing.iterateInvoices({ perPage: 3 })),
  "usage, page by page": async (c) => collect(c.billing.iterateUsage({ ...(await week()), perPage: 24 })),
  "usage, streamed": async (c) => collect(c.billing.streamUsage({ ...(await week()), perPage: 24 })),
  "an invoice's drill-down (teams)": async (c) => {
    const [invoice] = await collect(c.billing.iterateInvoices());
    const pages = await collect(c.billing.invoicePages(String(invoice?.id), { teamsPerPage: 2 }));
    return pages.flatMap((p) => p.data.paas.teams ?? []);
  },
  "an hour's drill-down (resources)": async (c) => {
    const { endTime } = await week();
    const projectId = e.fixtures.projects.find((p: { id: string }) => p.id === P).uid;
    const pages = await collect(c.billing.usageHourPages(endTime - hour, { projectId, resourcesPerPage: 2 }));
    // A page holds resource groups, each with its page's part of the items: a group may straddle pages.
    return pages.flatMap((p) =>
      (p.data.paas.teams ?? []).flatMap((t) =>
        (t.projects ?? []).flatMap((pr) => (pr.resources ?? []).flatMap((r) => r.items)),
      ),
    );
  },
};

describe.each(["split", "short", "empty-between", "growing"])("a platform that pages %s", (shape) => {
  // A list that grows moves each later page back by one, so a list of three in pages of two still
  // takes two pages: its pages repeat an entry instead (below).
  const morePages = shape !== "growing";
  it.each(Object.entries(lists))("reads %s whole, as whole pages give it", async (_name, read) => {
    const c = e.client();
    await startWork(c);
    const requests = async () => (await e.requests()).length;
    const start = await requests();
    const whole = await read(c);
    const wholeRequests = (await requests()) - start;
    expect(whole.length).toBeGreaterThan(1);
    await e.control("POST", "settings", { pageShape: shape });
    const before = await requests();
    expect(await read(c)).toEqual(whole);
    // The shape was in effect: it took more pages than whole pages do.
    if (morePages) expect((await requests()) - before).toBeGreaterThan(wholeRequests);
    else expect((await requests()) - before).toBeGreaterThanOrEqual(wholeRequests);
  });
});

describe("a list that grows while it is read", () => {
  it("repeats an entry on the next page, which the walk hands over once", async () => {
    const c = e.client();
    await e.control("POST", "settings", { pageShape: "growing" });
    const first = await c.teams.list({ per_page: 2 });
    const second = await c.teams.list({ per_page: 2, cursor: String(first.pagination.cursor) });
    expect(second.items[0]).toEqual(first.items.at(-1));
    const walked = await collect(c.teams.iterate({ per_page: 2 }));
    expect(new Set(walked.map((t) => t.id)).size).toBe(walked.length);
  });
});
