import { expect, it } from "vitest";
import { withHistory } from "../wait-efficiency/scenarios.ts";
import { historyTargets } from "../wait-efficiency/targets.ts";

// The wait-efficiency benchmark with the service's recent build durations as history (see
// wait-efficiency.test.ts): deterministic, on virtual time, its targets asserted in CI.
it("with history, ±5% and ±20% around the median, meets its targets", { timeout: 600_000 }, async () => {
  const history = { spread20: await withHistory(0.2), spread5: await withHistory(0.05) };
  const missed = historyTargets(history).filter((t) => !t.met);
  expect(missed, JSON.stringify({ history }, null, 2)).toEqual([]);
});
