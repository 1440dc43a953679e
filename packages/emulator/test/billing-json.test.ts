import { describe, expect, it } from "vitest";
import { JsonBytes } from "../src/billing/json-bytes.js";
import { zero } from "../src/billing/ledger.js";
import { priced } from "../src/billing/money.js";

// Usage list entries are written by hand (`JsonBytes.priced`) and drill-downs by JSON.stringify
// (`priced`): the two must be the same text for any amounts.

const EDGES = [
  0, 1, 5_000, 9_999, 10_000, 15_000, 999_999, 1_000_000, 123_456_789, 4.5e11, 99_999_999_999_999, 1.2e15,
  6.17e15, -1, -15_000, -1_000_000, -123_456_789,
];

describe("JsonBytes.priced", () => {
  it("is JSON.stringify(priced(a)) without braces, for edges and a million random amounts", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const out = new JsonBytes();
    // Differences gathered and checked once: an expect per round was most of the test's time.
    const differ: string[] = [];
    for (let round = 0; round < 125_000; round++) {
      const a = zero();
      for (let i = 0; i < 8; i++)
        a[i] =
          round < EDGES.length
            ? (EDGES[(round + i) % EDGES.length] as number)
            : Math.round(random() ** 3 * 10 ** (1 + ((i + round) % 14)));
      const [got, want] = [out.priced(a).take().toString("utf8"), JSON.stringify(priced(a)).slice(1, -1)];
      if (got !== want && differ.length < 5) differ.push(`${got} != ${want}`);
    }
    expect(differ).toEqual([]);
  });
});
