import { describe, expect, it } from "vitest";
import { add, HOUR_MS, Ledger, zero } from "../src/billing/ledger.js";
import { seedWorld } from "../src/model/world.js";

// The ledger sums whole calendar months once per meter (ahead of the first read for a scaled
// world, and kept for a world seeded again): those sums must be what the days add up to.

describe("Ledger", () => {
  const seededAt = Date.UTC(2026, 5, 15, 12);
  const scale = { teams: 4, projectsPerTeam: 3, resourcesPerProject: 6 };
  const days = (ledger: Ledger, index: number, fromHour: number, toHour: number) => {
    const sum = zero();
    for (let d = fromHour / 24; d < toHour / 24; d += 1) add(sum, ledger.day(ledger.meters[index]!, d));
    return [...sum];
  };

  it("sums ranges of whole and partial months, summed ahead or on first read, to their days", () => {
    const ahead = new Ledger(seedWorld(3, seededAt, scale));
    ahead.warm(seededAt);
    const ranges = [
      [Date.UTC(2025, 6, 1), Date.UTC(2026, 5, 1)],
      [Date.UTC(2025, 6, 17), Date.UTC(2026, 4, 9)],
      [Date.UTC(2026, 1, 3), Date.UTC(2026, 1, 27)],
    ].map(([from, to]) => [(from as number) / HOUR_MS, (to as number) / HOUR_MS] as const);
    for (const [from, to] of ranges)
      for (let i = 0; i < ahead.meters.length; i += 5) {
        const expected = days(ahead, i, from, to);
        expect([...ahead.sum(ahead.meters[i]!, from, to)], `meter ${i}`).toEqual(expected);
        // A world seeded again (an emulator's reset) reads the months its first ledger summed.
        const again = new Ledger(seedWorld(3, seededAt, scale));
        expect([...again.sum(again.meters[i]!, from, to)], `meter ${i}, again`).toEqual(expected);
      }
  });

  it("keeps no sums of another world: a different seed reads its own days", () => {
    const first = new Ledger(seedWorld(3, seededAt, scale));
    const other = new Ledger(seedWorld(4, seededAt, scale));
    const [from, to] = [Date.UTC(2025, 8, 1) / HOUR_MS, Date.UTC(2025, 11, 1) / HOUR_MS];
    expect([...first.sum(first.meters[2]!, from, to)]).toEqual(days(first, 2, from, to));
    expect([...other.sum(other.meters[2]!, from, to)]).toEqual(days(other, 2, from, to));
    expect(days(other, 2, from, to)).not.toEqual(days(first, 2, from, to));
  });
});
