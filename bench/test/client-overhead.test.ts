import { describe, expect, it } from "vitest";
import { measureParse, measureThroughput } from "../client-overhead/measure.ts";

// A floor, not the target (0.90, bench/README): loose enough for two shared cores whose speed
// drifts, tight enough to catch what a per-request AbortSignal did (0.64-0.71 of raw undici on
// this machine, against 0.74-0.92 without it).
const THROUGHPUT_FLOOR = 0.72;

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
