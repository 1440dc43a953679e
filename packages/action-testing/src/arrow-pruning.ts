import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// What Apache Arrow (pyarrow, the reader of Spark's and pandas' users) reads of a FOCUS Parquet
// file or a folder partitioned Hive-style, for a filter on one column: the row groups its own
// statistics logic keeps, and their bytes, beside all of them. Arrow uses a row group's min_value
// and max_value only where the footer's column_orders says their order (parquet.thrift: "If this
// is not set, ... readers ... should ignore the statistics"); without it, every row group is read.
// DuckDB uses the statistics either way, so it cannot tell.
const SCRIPT = `
import datetime, json, sys
import pyarrow as pa
import pyarrow.dataset as ds
path, spec = sys.argv[1], json.loads(sys.argv[2])
dataset = ds.dataset(path, format="parquet", partitioning="hive")
fragments = [f for f in dataset.get_fragments() if f.metadata.num_row_groups > 0]
column = spec["column"]
kind = dataset.schema.field(column).type
def scalar(value):
    if pa.types.is_timestamp(kind):
        value = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    return pa.scalar(value, type=kind)
first = fragments[0].metadata
stats = first.row_group(0).column(first.schema.names.index(column)).statistics
field = ds.field(column)
if "from" in spec:
    condition = (field >= scalar(spec["from"])) & (field < scalar(spec["to"]))
elif "equals" in spec:
    condition = field == scalar(spec["equals"])
else:
    condition = field == (stats.min if stats.has_min_max else None)
row_groups = kept = size = kept_size = 0
for fragment in fragments:
    meta = fragment.metadata
    sizes = [sum(meta.row_group(g).column(c).total_compressed_size for c in range(meta.num_columns)) for g in range(meta.num_row_groups)]
    row_groups += len(sizes)
    size += sum(sizes)
    for piece in fragment.split_by_row_group(condition):
        for group in piece.row_groups:
            kept += 1
            kept_size += sizes[group.id]
print(json.dumps({"rowGroups": row_groups, "hasMinMax": stats.has_min_max, "kept": kept, "bytes": size, "keptBytes": kept_size}))
`;

/** A filter on one column: a range of instants, one value, or (neither) the first row group's minimum. */
export interface PruningFilter {
  column: string;
  /** ISO 8601 instants: from (inclusive) to (exclusive). */
  from?: string;
  to?: string;
  equals?: string | number;
}

export interface ArrowPruning {
  rowGroups: number;
  /** Whether Arrow reads the first row group's statistics of the column as a min and a max at all. */
  hasMinMax: boolean;
  /** The row groups Arrow keeps for the filter. */
  kept: number;
  /** The compressed bytes of every row group's column chunks, and of the ones kept. */
  bytes: number;
  keptBytes: number;
}

/** pyarrow, installed by pip into a folder of this package's own (never the user's Python) on first use. */
const PYARROW = fileURLToPath(new URL("../node_modules/.cache/pyarrow", import.meta.url));

/** What Arrow reads of `path` (a Parquet file, or a folder of them partitioned Hive-style) for `filter`. */
export function arrowPruning(path: string, filter: PruningFilter): ArrowPruning {
  ensurePyarrow();
  const out = execFileSync("python3", ["-c", SCRIPT, path, JSON.stringify(filter)], {
    encoding: "utf8",
    env: { ...process.env, PYTHONPATH: PYARROW },
  });
  return JSON.parse(out) as ArrowPruning;
}

function ensurePyarrow(): void {
  if (!existsSync(PYARROW)) {
    // Into a folder of this process's, then renamed into place: two test files installing at once
    // never see a half-installed pyarrow.
    const staging = `${PYARROW}.${process.pid}`;
    execFileSync(
      "python3",
      ["-m", "pip", "install", "--quiet", "--retries", "0", "--target", staging, "pyarrow"],
      {
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    try {
      renameSync(staging, PYARROW);
    } catch {
      rmSync(staging, { recursive: true, force: true });
    }
  }
}

/**
 * A copy of a Parquet file of ours at `to`, its footer without column_orders (FileMetaData field
 * 7): the file as a writer that leaves it out writes it, so a test can show what Arrow reads then.
 * Field 7 is the footer's last field, each column's TypeDefinedOrder, so its compact-protocol bytes
 * are known: they are checked, not assumed, before they are cut.
 */
export function withoutColumnOrders(from: string, to: string): void {
  const file = readFileSync(from);
  const footerLength = file.readInt32LE(file.length - 8);
  const footer = file.subarray(file.length - 8 - footerLength, file.length - 8);
  const columns = arrowColumnCount(from);
  // Field 7 (delta 1 from field 6) of type list (9); a list of `columns` structs (12), its size as a
  // varint after 0xFC when 15 or more; each element field 1 an empty struct (0x1C 0x00), then a stop.
  const size = columns < 15 ? [(columns << 4) | 12] : [0xfc, ...varint(columns)];
  const field7 = Buffer.from([0x19, ...size, ...Array.from({ length: columns }, () => [0x1c, 0, 0]).flat()]);
  const at = footer.length - 1 - field7.length;
  if (!footer.subarray(at, footer.length - 1).equals(field7) || footer[footer.length - 1] !== 0)
    throw new Error(`${from}: its footer does not end with the column_orders this helper knows`);
  const length = Buffer.alloc(4);
  length.writeInt32LE(footerLength - field7.length);
  writeFileSync(
    to,
    Buffer.concat([
      file.subarray(0, file.length - 8 - footerLength),
      footer.subarray(0, at),
      Buffer.of(0),
      length,
      Buffer.from("PAR1"),
    ]),
  );
}

function varint(n: number): number[] {
  const out: number[] = [];
  for (; n >= 0x80; n >>>= 7) out.push((n & 0x7f) | 0x80);
  return [...out, n];
}

/** The number of leaf columns, as Arrow reads the file's schema. */
function arrowColumnCount(path: string): number {
  ensurePyarrow();
  const script = "import sys, pyarrow.parquet as pq; print(pq.ParquetFile(sys.argv[1]).metadata.num_columns)";
  return Number(
    execFileSync("python3", ["-c", script, path], {
      encoding: "utf8",
      env: { ...process.env, PYTHONPATH: PYARROW },
    }),
  );
}
