import { expect, it } from "vitest";
import { tenWaitsStreamingLogs } from "../wait-efficiency/scenarios.ts";
import { tenWaitsTargets } from "../wait-efficiency/targets.ts";

// The wait-efficiency benchmark's ten waits streaming logs on one account (see
// wait-efficiency.test.ts): deterministic, on virtual time, its targets asserted in CI.
it("ten waits streaming logs on one account meet their targets", { timeout: 600_000 }, async () => {
  const ten = await tenWaitsStreamingLogs();
  const missed = tenWaitsTargets(ten).filter((t) => !t.met);
  expect(missed, JSON.stringify({ ten }, null, 2)).toEqual([]);
});
