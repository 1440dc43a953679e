import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { useTestPlatform } from "@cwp/action-testing";
import { createClient } from "@cwp/client";
import { describe, expect, it } from "vitest";
import { type CostReportOptions, ReportOptionError, writeCostReport } from "../src/index.js";

// The engine as a script calls it, over loopback against the emulator: the README's example as
// written, and options refused before anything is read.

// The emulator's history ends now, as the script's `last-month` is read against the machine's clock.
const platform = useTestPlatform({ speed: 0 });
const packageDir = new URL("..", import.meta.url).pathname;

describe("@cwp/cost-report", () => {
  it("runs the README's script as written", async () => {
    const readme = await readFile(join(packageDir, "README.md"), "utf8");
    const script = /## From a script\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(script).toBeDefined();
    // Inside the package, so that its own name and @cwp/client resolve as they do for a user.
    const dir = await mkdtemp(join(packageDir, "test", ".readme-"));
    try {
      await writeFile(join(dir, "script.ts"), script ?? "");
      const { stdout } = await promisify(execFile)(process.execPath, ["script.ts"], {
        cwd: dir,
        env: { ...process.env, CWP_API_URL: platform.url, CWP_API_TOKEN: platform.tokens.org },
      });
      const now = new Date();
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1));
      const named = month.toLocaleString("en", { month: "long", year: "numeric", timeZone: "UTC" });
      const [first, second] = stdout.split("\n");
      expect(first).toMatch(new RegExp(`^${named} \\(last month\\): [1-9]\\d*\\.\\d\\d USD$`));
      expect(second).toMatch(/^budget: (under|warning|over); files: /);
      expect((await readdir(join(dir, "costs"))).sort()).toEqual([
        "focus.parquet",
        "report.json",
        "report.md",
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each<[Partial<CostReportOptions>, string]>([
    [{ groupBy: "teams" as never }, "groupBy: must be one of team, project, resource-type, resource"],
    [{ formats: ["pdf" as never] }, "formats: must be one of markdown, csv, json, focus, focus-parquet"],
    [{ top: 0 }, "top: must be a whole number, 1 or more"],
    [{ billingAccountName: "Acme\nCorp" }, "billingAccountName: must be one line"],
    [{ budget: "2,500" }, "budget: must be an amount such as 2500 or 1999.99"],
    [{ start: "2026-02-30", end: "2026-03-01" }, "start: must be a date as YYYY-MM-DD (UTC)"],
    [{ now: Number.NaN }, "now: must be a time in milliseconds since the epoch"],
    [{ deadline: Number.POSITIVE_INFINITY }, "deadline: must be a time in milliseconds since the epoch"],
  ])("refuses %o before reading anything", async (wrong, message) => {
    const client = createClient({ baseUrl: platform.url, token: platform.tokens.org });
    const before = (await platform.requests()).length;
    const dir = await mkdtemp(join(tmpdir(), "cwp-cost-report-"));
    const error = await writeCostReport(client, { dir, formats: ["json"], ...wrong }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ReportOptionError);
    expect((error as Error).message).toContain(message);
    expect((await platform.requests()).length).toBe(before);
    expect(await readdir(dir)).toEqual([]);
    await rm(dir, { recursive: true, force: true });
  });
});
