import { expect, it } from "vitest";
import { withoutHistory } from "../wait-efficiency/scenarios.ts";
import { noHistoryTargets } from "../wait-efficiency/targets.ts";

// The wait-efficiency benchmark runs on the emulator's virtual time and is deterministic: its
// targets are asserted in CI, so a change that makes waiting slower or costlier is red. One file
// per scenario (this one, wait-efficiency-history and wait-efficiency-ten-waits), side by side.
// A bound on a hang: a scenario takes under a minute alone, three beside busy loops and other tests.
it("without history, meets its targets", { timeout: 600_000 }, async () => {
  const noHistory = await withoutHistory();
  const missed = noHistoryTargets(noHistory).filter((t) => !t.met);
  expect(missed, JSON.stringify({ noHistory }, null, 2)).toEqual([]);
});
