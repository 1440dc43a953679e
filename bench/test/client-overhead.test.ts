import { describe, expect, it } from "vitest";
import { measureParse, measureThroughput } from "../client-overhead/measure.ts";

// The target itself (bench/README): the client does 1.10-1.22 of raw undici's requests per second
// on an idle machine; what a per-request AbortSignal did (13250aa) read 0.81-0.87. Its wall time
// is asserted nowhere: beside two busy loops its ratios spread from 0.7 to 1.5. CI asserts the
// ratio of main-thread CPU time over rounds of seconds, which another process's load does not
// stretch (0.95-1.17 in runs idle and loaded alike). The drill-down's ratio is the median of turns
// under a millisecond each, which such load falls on alike (measure.ts).
const THROUGHPUT_FLOOR = 0.9;

describe("client overhead", () => {
  it(`keeps at least ${THROUGHPUT_FLOOR} of raw undici's throughput per CPU second`, {
    timeout: 300_000,
  }, async () => {
    const measured = await measureThroughput({ requests: 5_000, concurrency: 16, rounds: 9 });
    expect(measured.cpuRatio, JSON.stringify(measured)).toBeGreaterThanOrEqual(THROUGHPUT_FLOOR);
  });

  it("validates a drill-down page in at most 1.5 times what JSON.parse alone takes", () => {
    const measured = measureParse();
    expect(measured.validateRatio, JSON.stringify(measured)).toBeLessThanOrEqual(1.5);
  });
});
