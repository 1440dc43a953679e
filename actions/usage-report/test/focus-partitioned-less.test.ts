import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { platform, useFocusChecks } from "./focus-checks.js";
import { partitionedRuns } from "./focus-partitioned-runs.js";
import { projectListGoingRound } from "./project-list-going-round.js";

useFocusChecks();

// A partitioned FOCUS dataset (focus-layout: partitioned) never has a period replaced with less
// (the dataset itself: focus-partitioned.test.ts; focus-checks.ts says how its files are checked).

describe("usage-report: the FOCUS dataset partitioned by billing period (focus-layout: partitioned)", {
  timeout: 300_000,
}, () => {
  const { range, write, partsOf } = partitionedRuns();

  // What a stand-in platform may send an export, through the emulator's faults: each time the
  // dataset is read back, and the period before the run's (a complete month of an earlier run)
  // is as it was.
  describe("never replaces a period with less", () => {
    const before = (() => {
      const first = new Date(`${range.start}T00:00:00Z`);
      const day = new Date(first.getTime() - 86_400_000);
      return { month: day.toISOString().slice(0, 7), day: day.toISOString(), first: first.toISOString() };
    })();
    /** A dataset with the month before the run's, complete, as an earlier run left it. */
    const earlier = async (root: string) => {
      const dir = await mkdtemp(join(tmpdir(), "cwp-focus-earlier-"));
      expect((await write(dir, "partitioned")).code).toBe(0);
      const folder = join(root, `billing_period=${before.month}`);
      await mkdir(folder, { recursive: true });
      await copyFile(
        join(dir, "focus", `billing_period=${range.months[0]}`, "part-00000.parquet"),
        join(folder, "part-00000.parquet"),
      );
      const bytes = await readFile(join(folder, "part-00000.parquet"));
      return {
        intact: async () => {
          expect(await readdir(folder)).toEqual(["part-00000.parquet"]);
          expect(await readFile(join(folder, "part-00000.parquet"))).toEqual(bytes);
        },
      };
    };

    it("leaves out a bucket dated before the window, with a warning naming how many rows and which period; the dataset may be a link to another file system", async () => {
      await platform.reset();
      const dir = await mkdtemp(join(tmpdir(), "cwp-focus-outside-"));
      // The dataset on a mounted volume: /dev/shm is a file system of its own (a rename across fails).
      const volume = await mkdtemp(join("/dev/shm", "cwp-focus-volume-"));
      // /dev/shm is memory and outlives the test: the volume goes with it, pass or fail.
      onTestFinished(() => rm(volume, { recursive: true, force: true }));
      expect((await stat(volume)).dev).not.toBe((await stat(dir)).dev);
      await symlink(volume, join(dir, "focus"));
      const { intact } = await earlier(volume);
      // The trend's first bucket answered as the day before the window.
      await platform.control("POST", "faults", {
        method: "GET",
        path: "/v1/billing/usage*",
        rewrite: { set: { "data.usage.0.window": { start: before.day, end: before.first } } },
        times: 100,
      });
      const day = { granularity: "day", "billing-account-name": "" };
      const result = await write(dir, "partitioned", day, platform.tokens.teamViaOrg);
      expect(result.code, result.stdout).toBe(0);
      expect(result.stdout).toMatch(
        new RegExp(
          `::warning::The platform sent \\d+ FOCUS rows of billing period ${before.month}, which this run was not asked for \\(${range.months.join(", ")}\\): left out`,
        ),
      );
      await intact();
      expect((await partsOf(volume)).filter((p) => !p.includes(before.month))).toEqual(
        range.months.map((m) => `billing_period=${m}/part-00000.parquet`),
      );
      expect(await readdir(dir)).toEqual(["focus"]);
      expect((await readdir("/dev/shm")).filter((f) => f.includes("staging"))).toEqual([]);
    });

    it("writes nothing and fails, naming the list, when a list the export reads goes round", async () => {
      await platform.reset();
      const dir = await mkdtemp(join(tmpdir(), "cwp-focus-loop-"));
      const { intact } = await earlier(join(dir, "focus"));
      await projectListGoingRound(platform);
      const result = await write(dir, "partitioned");
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /::error::GET \/v1\/projects .*could not be read whole, so nothing was written/,
      );
      await intact();
      expect(await partsOf(join(dir, "focus"))).toEqual([
        `billing_period=${before.month}/part-00000.parquet`,
      ]);
      expect(await readdir(dir)).toEqual(["focus"]);
    });

    it("stops, naming the entry, on a usage entry with neither window nor timestamp", async () => {
      await platform.reset();
      const dir = await mkdtemp(join(tmpdir(), "cwp-focus-timeless-"));
      const { intact } = await earlier(join(dir, "focus"));
      await platform.control("POST", "faults", {
        method: "GET",
        path: "/v1/billing/usage*",
        rewrite: { omit: ["data.usage.1.window", "data.usage.1.timestamp"] },
        times: 100,
      });
      const result = await write(dir, "partitioned");
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /::error::The platform's usage entry 2 has neither a window nor a timestamp/,
      );
      expect(result.stdout).not.toMatch(/Invalid time value/);
      await intact();
      expect(await partsOf(join(dir, "focus"))).toEqual([
        `billing_period=${before.month}/part-00000.parquet`,
      ]);
    });
  });
});
