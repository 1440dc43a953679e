import { describe, expect, it } from "vitest";
import { measureParse, measureThroughput } from "../client-overhead/measure.ts";

// The target itself (bench/README): the client reads 1.10-1.22 of raw undici on two shared cores
// whose speed drifts (its single runs spread about ±7%), so a run below 0.90 is a regression, not
// noise. What a per-request AbortSignal did (13250aa), put back into this transport, reads
// 0.81-0.87: caught.
const THROUGHPUT_FLOOR = 0.9;

describe("client overhead", () => {
  it(`keeps at least ${THROUGHPUT_FLOOR} of raw undici's throughput (median of paired rounds)`, {
    timeout: 120_000,
  }, async () => {
    const measured = await measureThroughput({ requests: 5_000, concurrency: 16, rounds: 9 });
    expect(measured.medianRatio, JSON.stringify(measured)).toBeGreaterThanOrEqual(THROUGHPUT_FLOOR);
  });

  it("validates a drill-down page in at most 1.5 times what JSON.parse alone takes", () => {
    const measured = measureParse();
    expect(
      measured.jsonParseAndValidateMicros / measured.jsonParseMicros,
      JSON.stringify(measured),
    ).toBeLessThanOrEqual(1.5);
  });
});
