import { readdir } from "node:fs/promises";
import { runBundle } from "@cwp/action-testing";
import { actionDir, platform, quoted, twoWholeMonths } from "./focus-checks.js";

// What the partitioned FOCUS tests share (focus-partitioned.test.ts,
// focus-partitioned-less.test.ts): a run of the step for two whole months, and its dataset read.

/** Called in a file's describe: the two whole months it runs for, a run of the step, its parts. */
export function partitionedRuns() {
  const range = twoWholeMonths();
  const inputs = {
    start: range.start,
    end: range.end,
    granularity: "month",
    compare: "false",
    "billing-account-name": "Acme Corp",
  };
  const write = async (
    dir: string,
    layout: "file" | "partitioned",
    extra: Record<string, string> = {},
    token = platform.tokens.org,
  ) =>
    runBundle(actionDir, {
      inputs: {
        ...platform.connection(token),
        "output-dir": dir,
        formats: "focus-parquet",
        "focus-layout": layout,
        ...inputs,
        ...extra,
      },
    });
  const dataset = (root: string) =>
    `read_parquet(${quoted(`${root}/**/*.parquet`)}, hive_partitioning = true)`;
  const partsOf = async (root: string) =>
    (await readdir(root, { recursive: true })).filter((f) => f.endsWith(".parquet")).sort();
  return { range, write, dataset, partsOf };
}
