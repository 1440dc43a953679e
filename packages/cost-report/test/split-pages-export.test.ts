import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestPlatform } from "@cwp/action-testing";
import { createClient } from "@cwp/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { writeCostReport } from "../src/index.js";

// A partitioned export replaces a billing period only from a read that ended on the platform's own
// "no next page" (spec 2.1). A platform that serves a page of 100 hours as two pages of 50 (the
// emulator's `split` page shape) must give the same dataset, byte for byte, as whole pages: a year
// by hour, 8,760 hours, each period read to its end however many pages it takes.

// A fixed clock: the same billing history on every run. History reaches 13 months back.
const platform = useTestPlatform({ speed: 0, startAt: Date.UTC(2026, 6, 15, 12) });
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cwp-split-pages-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Every file of a partitioned dataset, by its path under focus/, with its bytes. */
async function dataset(root: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(join(root, "focus"), { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(path.slice(root.length), await readFile(path));
    }
  return files;
}

/** A year by hour of one project (its resources keep the rows few; the pages are the year's). */
async function exportYear(into: string) {
  await mkdir(into);
  const client = createClient({ baseUrl: platform.url, token: platform.tokens.org });
  try {
    const project = platform.fixtures.projects.find((p: { id: string }) => p.id === "platform-web");
    await writeCostReport(client, {
      dir: into,
      formats: ["focus-parquet"],
      focusLayout: "partitioned",
      start: "2025-07-01",
      end: "2026-06-30",
      granularity: "hour",
      projectId: project.uid,
      compare: false,
      now: Date.UTC(2026, 6, 15, 12),
    });
  } finally {
    await client.close();
  }
  const usage = (await platform.requests()).filter((r) => r.path === "/v1/billing/usage").length;
  await platform.control("DELETE", "requests");
  return usage;
}

it("a year by hour read in split pages is the dataset whole pages give, period for period", {
  timeout: 300_000,
}, async () => {
  const whole = join(dir, "whole");
  const wholeReads = await exportYear(whole);
  await platform.control("POST", "settings", { pageShape: "split" });
  const split = join(dir, "split");
  const splitReads = await exportYear(split);
  const [a, b] = [await dataset(whole), await dataset(split)];
  // Twelve billing periods, each a folder of its own.
  expect(new Set([...a.keys()].map((p) => p.split("/")[2])).size).toBe(12);
  expect([...b.keys()]).toEqual([...a.keys()]);
  for (const [path, bytes] of a) expect(b.get(path)?.equals(bytes), path).toBe(true);
  // The split platform took about twice the pages, each followed to the platform's last.
  expect(splitReads).toBeGreaterThanOrEqual(2 * wholeReads - 12);
});
