import { describe, expect, it } from "vitest";
import { tenWaitsStreamingLogs, withHistory, withoutHistory } from "../wait-efficiency/scenarios.ts";
import { targets } from "../wait-efficiency/targets.ts";

// The wait-efficiency benchmark runs on the emulator's virtual time and is deterministic: its
// targets are asserted here, so a change that makes waiting slower or costlier is red in CI.
describe("wait-efficiency targets", () => {
  // A bound on a hang: the scenarios take about a minute alone, three beside busy loops and other tests.
  it("are all met", { timeout: 600_000 }, async () => {
    const noHistory = await withoutHistory();
    const history = { spread20: await withHistory(0.2), spread5: await withHistory(0.05) };
    const ten = await tenWaitsStreamingLogs();
    const missed = targets({ noHistory, history, ten }).filter((t) => !t.met);
    expect(missed, JSON.stringify({ ten }, null, 2)).toEqual([]);
  });
});
