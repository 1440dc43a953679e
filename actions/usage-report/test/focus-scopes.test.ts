import { tmpdir } from "node:os";
import { join } from "node:path";
import { runBundle } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import {
  actionDir,
  checkDataset,
  count,
  focusReport,
  platform,
  rows,
  useFocusChecks,
} from "./focus-checks.js";

useFocusChecks();

// focus.csv and focus.parquet for a team's scope and the billing account's name (focus-checks.ts
// says how they are checked; focus-dataset.test.ts has the organisation's).

describe("usage-report: the FOCUS dataset (focus.csv and focus.parquet)", { timeout: 300_000 }, () => {
  it("a team billed through the organisation, a day by hour: its share, no customer-level charges", async () => {
    const dayBefore = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const { header, json, parquet } = await focusReport(
      { start: dayBefore, end: dayBefore, granularity: "hour", compare: "false", "group-by": "team" },
      platform.tokens.teamViaOrg,
    );
    await checkDataset(header, json, parquet);
    expect(
      await rows(
        "SELECT DISTINCT BillingAccountType, epoch(ChargePeriodEnd) - epoch(ChargePeriodStart) AS seconds FROM pq",
      ),
    ).toEqual([{ BillingAccountType: "Team billed through an organisation", seconds: 3600 }]);
    expect(await count("SELECT count(*) AS n FROM pq WHERE SubAccountId IS NULL")).toBe(0);
    // Its billing account is the team: named by the team's name, read whatever the grouping.
    expect(await count("SELECT count(*) AS n FROM pq WHERE BillingAccountName IS NULL")).toBe(0);
  });

  it("a team with its own billing, by month", async () => {
    const { header, json, parquet } = await focusReport(
      {
        period: "last-month",
        granularity: "month",
        compare: "false",
        "group-by": "resource-type",
        "billing-account-name": "Data team's own billing",
      },
      platform.tokens.teamOwnBilling,
    );
    await checkDataset(header, json, parquet);
    expect(await rows("SELECT DISTINCT BillingAccountName FROM pq")).toEqual([
      { BillingAccountName: "Data team's own billing" },
    ]);
  });

  it("warns, naming the input, when the dataset's BillingAccountName would be empty", async () => {
    await platform.reset();
    const dir = join(tmpdir(), `cwp-focus-unnamed-${process.pid}`);
    const result = await runBundle(actionDir, {
      inputs: { ...platform.connection(), "output-dir": dir, formats: "focus", period: "last-7-days" },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(
      /::warning::The FOCUS dataset's BillingAccountName is empty.*Name it with billing-account-name: <name>\./,
    );
  });
});
