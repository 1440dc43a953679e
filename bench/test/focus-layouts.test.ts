import { describe, expect, it } from "vitest";
import { measureLayouts, targets } from "../focus-layouts/measure.ts";

// The partitioned FOCUS dataset at scale, a year by day of 2,000 resources, against focus.csv: at
// most an eighth of its bytes and a peak of at most 512 MB, asserted here. The wall is measured
// and printed, not asserted: one run on a shared machine moves by a fifth (bench/README.md has
// the runs the 1.1× target is judged on).
describe("FOCUS layouts at scale", () => {
  it("focus/ partitioned by billing period keeps the single file's bytes and memory targets", {
    timeout: 300_000,
  }, async () => {
    const measured = await measureLayouts({
      scale: "10x10x20",
      period: "last-12-months",
      granularity: "day",
    });
    const met = targets(measured);
    console.log(JSON.stringify({ measured, targets: met }));
    const partitioned = measured.find((m) => m.layout === "focus/ (partitioned)");
    // A year by day: twelve billing periods, or thirteen when the year starts mid-month.
    expect(partitioned?.files).toBeGreaterThanOrEqual(12);
    for (const t of met) {
      expect(t.atMostAnEighthOfTheCsv, t.layout).toBe(true);
      expect(t.peakWithin512Mb, t.layout).toBe(true);
    }
    // Arrow, which uses the statistics only where the footer gives their order, reads one day of
    // the year in the row groups that hold it: under a tenth of the bytes, in either form. And
    // one service in its own row groups (a row group holds one ServiceName): the others' skipped.
    for (const m of measured.filter((m) => m.pruned)) {
      expect(m.pruned?.oneDay.keptRowGroups, m.layout).toBeGreaterThan(0);
      expect(m.pruned?.oneDay.share, m.layout).toBeLessThan(0.1);
      expect(m.pruned?.oneService.keptRowGroups, m.layout).toBeGreaterThan(0);
      expect(m.pruned?.oneService.share, m.layout).toBeLessThan(0.5);
    }
  });
});
