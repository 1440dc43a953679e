import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

// What Apache Arrow (pyarrow, the reader of Spark's and pandas' users) skips of a FOCUS Parquet
// file for a filter on one value of a column: the row groups its own statistics logic keeps,
// beside all of them. Arrow uses a row group's min_value and max_value only where the footer's
// column_orders says their order (parquet.thrift: "If this is not set, ... readers ... should
// ignore the statistics"); without it, every row group is read.
const SCRIPT = `
import json, sys
import pyarrow.dataset as ds
import pyarrow.parquet as pq
path, column = sys.argv[1], sys.argv[2]
meta = pq.ParquetFile(path).metadata
index = meta.schema.names.index(column)
stats = meta.row_group(0).column(index).statistics
fragment = next(ds.dataset(path, format="parquet").get_fragments())
kept = fragment.split_by_row_group(ds.field(column) == stats.min) if stats.has_min_max else []
print(json.dumps({"rowGroups": meta.num_row_groups, "hasMinMax": stats.has_min_max, "kept": len(kept)}))
`;

export interface ArrowPruning {
  rowGroups: number;
  /** Whether Arrow reads the first row group's statistics as a min and a max at all. */
  hasMinMax: boolean;
  /** The row groups Arrow keeps for `column == the first row group's minimum`. */
  kept: number;
}

/** pyarrow, installed by pip into a folder of this package's own (never the user's Python) on first use. */
const PYARROW = fileURLToPath(new URL("../node_modules/.cache/pyarrow", import.meta.url));

export function arrowPruning(path: string, column: string): ArrowPruning {
  if (!existsSync(`${PYARROW}/pyarrow`))
    execFileSync(
      "python3",
      ["-m", "pip", "install", "--quiet", "--retries", "0", "--target", PYARROW, "pyarrow"],
      {
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
  const out = execFileSync("python3", ["-c", SCRIPT, path, column], {
    encoding: "utf8",
    env: { ...process.env, PYTHONPATH: PYARROW },
  });
  return JSON.parse(out) as ArrowPruning;
}
