import { BUILD, VERSION } from "../../version.js";
import { LineFile } from "../line-file.js";
import { columnsOf, FOCUS_COLUMNS, FOCUS_VERSION, type FocusColumn, type SharedPart } from "./columns.js";
import { ByteBuffer } from "./parquet/byte-buffer.js";
import { type ColumnPages, ColumnPagesWriter, place, RunsBuilder } from "./parquet/column-chunk.js";
import { type ThriftStruct, writeStruct } from "./parquet/thrift.js";
import type { FocusParts } from "./parts.js";
import type { FocusSink } from "./rows.js";

// focus.parquet: the rows of focus.csv with typed columns (amounts DOUBLE, the values the platform
// sent, exactly; date-times TIMESTAMP in UTC; strings UTF-8), written a row group at a time as the
// usage is read, so memory holds one row group whatever the report's size.
//
// Written by our own encoder (`parquet/`), not a library: the libraries measured (usage-report's
// README) encode any column generically, looking up every value of every column, and took twice
// the CSV's time; here a row records which shared parts it has, and each column's dictionary is
// made from those few parts, not from its rows.
//
// Compressed (Zstandard, in libuv's threads): the resource ids (hex text, the one large dictionary)
// and the two quantity columns (by 40%). Not the four cost columns: they are most of the file and
// shrink by only a third, and compressing them made the file 92 MB instead of about 120 at 50k
// resources × 30 days by day, but 2.3 s slower than focus.csv. Nor the other dictionaries: each is
// small, and a compression's set-up (a zlib stream each) cost more than they would save.

/** Rows per row group: a few megabytes encoded, and what memory holds of the file. */
const ROW_GROUP_ROWS = 50_000;
const MAGIC = new TextEncoder().encode("PAR1");
/** The writer, in the form the format gives ("<application> version <version> (build <hash>)"). */
const CREATED_BY = `cwp-usage-report version ${VERSION} (build ${BUILD})`;

/**
 * The footer's key-value metadata (KeyValue: 1 key, 2 value): what FOCUS's metadata names the
 * version the dataset conforms to (FocusVersion) and what wrote it (DataGenerator), under those
 * ids, so an engine reading the file alone can tell.
 */
const KEY_VALUES: ThriftStruct[] = [
  ["FocusVersion", FOCUS_VERSION],
  ["DataGenerator", "cwp usage-report"],
  ["DataGeneratorVersion", VERSION],
].map(([key, value]) => [
  [1, { binary: key as string }],
  [2, { binary: value as string }],
]);

// The footer's field numbers and values are parquet.thrift's (https://github.com/apache/parquet-format).
const PHYSICAL = { INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6 } as const;
const CONVERTED = { UTF8: 0, TIMESTAMP_MILLIS: 9 } as const;
/** LogicalType STRING. */
const STRING: ThriftStruct = [[1, { struct: [] }]];
/** LogicalType TIMESTAMP: isAdjustedToUTC true, unit MILLIS. */
const TIMESTAMP_UTC_MILLIS: ThriftStruct = [
  [
    8,
    {
      struct: [
        [1, { bool: true }],
        [2, { struct: [[1, { struct: [] }]] }],
      ],
    },
  ],
];

/**
 * The footer's column_orders (7): each column's ColumnOrder is TYPE_ORDER (1, an empty
 * TypeDefinedOrder), the order its min_value and max_value are written in (signed for numbers,
 * unsigned bytes for text). The format leaves those values' order undefined without it, and
 * Arrow, parquet-java (Spark, Hive) and Trino then skip no row group by them; DuckDB did anyway.
 */
const COLUMN_ORDERS: ThriftStruct[] = FOCUS_COLUMNS.map(() => [[1, { struct: [] }]]);

/** A column's SchemaElement fields by FOCUS type: 1 type, 6 converted type (for older readers), 10 logical type. */
const SCHEMA_TYPES = {
  decimal: [[1, { i32: PHYSICAL.DOUBLE }]],
  datetime: [
    [1, { i32: PHYSICAL.INT64 }],
    [6, { i32: CONVERTED.TIMESTAMP_MILLIS }],
    [10, { struct: TIMESTAMP_UTC_MILLIS }],
  ],
  string: [
    [1, { i32: PHYSICAL.BYTE_ARRAY }],
    [6, { i32: CONVERTED.UTF8 }],
    [10, { struct: STRING }],
  ],
} satisfies Record<FocusColumn["type"], ThriftStruct>;

/** The footer's schema: the root (4 name, 5 children), then each column (3 repetition: 0 required, 1 optional; 4 name). */
const schema = (): ThriftStruct[] => [
  [
    [4, { binary: "schema" }],
    [5, { i32: FOCUS_COLUMNS.length }],
  ],
  ...FOCUS_COLUMNS.map((c): ThriftStruct => {
    const [type, ...rest] = SCHEMA_TYPES[c.type];
    return [type, [3, { i32: c.nullable ? 1 : 0 }], [4, { binary: c.name }], ...rest] as ThriftStruct;
  }),
];

/** Where each shared column's value sits in its part's values. */
const PLACE_IN_PART = new Map(FOCUS_COLUMNS.map((c) => [c, columnsOf(c.part).indexOf(c)]));

/**
 * Each shared part's rows in a row group: which part a row has, by its number in the group, in
 * runs. Its columns are written from those runs: a period or a project spans many rows, so each of
 * their columns costs a step per run, not per row.
 */
class PartRows {
  readonly runs = new RunsBuilder(ROW_GROUP_ROWS);
  parts: FocusParts[] = [];
  #numbers = new Map<FocusParts, number>();
  #last: FocusParts | undefined;
  #lastNumber = -1;

  add(part: FocusParts): void {
    // Neighbouring rows mostly share their parts: no lookup for those.
    if (part !== this.#last) {
      let number = this.#numbers.get(part);
      if (number === undefined) {
        number = this.parts.length;
        this.parts.push(part);
        this.#numbers.set(part, number);
      }
      this.#last = part;
      this.#lastNumber = number;
    }
    this.runs.add(this.#lastNumber);
  }

  reset(): void {
    this.runs.count = 0;
    this.parts = [];
    this.#numbers = new Map();
    this.#last = undefined;
  }
}

/**
 * The row group's resource ids, as a dictionary and each row's index in it (-1: none), in runs.
 * The dictionary is the ids in the order their runs come, a resource seen again (a later day)
 * again: looking each up (a hash of each id) took more time than the rest of the file, and the
 * column is compressed, so the repeats cost little room.
 */
class ResourceRows {
  readonly runs = new RunsBuilder(ROW_GROUP_ROWS);
  ids: string[] = [];
  #last: string | undefined;

  add(id: string | null): void {
    if (id !== null && id !== this.#last) this.ids.push(id);
    this.#last = id ?? undefined;
    this.runs.add(id === null ? -1 : this.ids.length - 1);
  }

  reset(): void {
    this.runs.count = 0;
    this.ids = [];
    this.#last = undefined;
  }
}

export class FocusParquet implements FocusSink {
  readonly #columns = new ColumnPagesWriter();
  readonly #costs = new Float64Array(ROW_GROUP_ROWS);
  readonly #quantities = new Float64Array(ROW_GROUP_ROWS);
  readonly #parts: Record<SharedPart, PartRows> = {
    period: new PartRows(),
    charge: new PartRows(),
    owner: new PartRows(),
  };
  readonly #resources = new ResourceRows();
  /** The runs of the column being written (a part's runs, each part as its value's index). */
  readonly #columnRuns = new RunsBuilder(ROW_GROUP_ROWS);
  #rows = 0;
  #totalRows = 0;
  /** Where the next bytes go in the file. */
  #offset = MAGIC.length;
  #rowGroups: ThriftStruct[] = [];
  /** Row groups on their way to the disk (compressing, then written in order): at most two. */
  #inFlight: Promise<void>[] = [];

  private constructor(private readonly file: LineFile) {
    file.bytes(MAGIC);
  }

  static create(path: string): FocusParquet {
    return new FocusParquet(LineFile.open(path));
  }

  row(
    period: FocusParts<"period">,
    charge: FocusParts<"charge">,
    owner: FocusParts<"owner">,
    resourceId: string | null,
    cost: number,
    quantity: number,
  ): void {
    const at = this.#rows++;
    this.#costs[at] = cost;
    this.#quantities[at] = quantity;
    this.#parts.period.add(period);
    this.#parts.charge.add(charge);
    this.#parts.owner.add(owner);
    this.#resources.add(resourceId);
    if (this.#rows === ROW_GROUP_ROWS) this.#writeGroup();
  }

  /** The disk's pace, and the row group before the last: memory holds at most two. */
  async drained(): Promise<void> {
    while (this.#inFlight.length > 1) await this.#inFlight.shift();
    await this.file.drained();
  }

  async close(): Promise<void> {
    if (this.#rows > 0) this.#writeGroup();
    for (const group of this.#inFlight) await group;
    const footer = new ByteBuffer();
    writeStruct(footer, [
      [1, { i32: 1 }],
      [2, { list: "struct", of: schema() }],
      [3, { i64: this.#totalRows }],
      [4, { list: "struct", of: this.#rowGroups }],
      [5, { list: "struct", of: KEY_VALUES }],
      [6, { binary: CREATED_BY }],
      [7, { list: "struct", of: COLUMN_ORDERS }],
    ]);
    const size = footer.length;
    footer.int32(size);
    footer.append(MAGIC);
    this.file.bytes(footer.bytes);
    await this.file.close();
  }

  discard(): Promise<void> {
    return this.file.discard();
  }

  /**
   * The buffered rows as a row group: its columns made now, compressed in the background, and
   * written after the group before it, in order.
   */
  #writeGroup(): void {
    const rows = this.#rows;
    const columns = FOCUS_COLUMNS.map((column) => this.#column(column, rows));
    const ready = Promise.all(columns.map((c) => c.pages));
    const previous = this.#inFlight.at(-1);
    const written = Promise.all([ready, previous]).then(([pages]) => {
      const chunks: ThriftStruct[] = [];
      const start = this.#offset;
      let uncompressed = 0;
      columns.forEach((column, i) => {
        const chunk = place(column, pages[i] ?? [], this.#offset);
        this.file.bytes(chunk.bytes);
        this.#offset += chunk.bytes.length;
        uncompressed += chunk.uncompressed;
        chunks.push(chunk.meta);
      });
      // RowGroup: 1 columns, 2 total_byte_size (uncompressed, as the format defines it), 3 rows,
      // 5 file_offset, 6 total_compressed_size.
      this.#rowGroups.push([
        [1, { list: "struct", of: chunks }],
        [2, { i64: uncompressed }],
        [3, { i64: rows }],
        [5, { i64: start }],
        [6, { i64: this.#offset - start }],
      ]);
    });
    // A failure is reported where the file is next waited for, not as unhandled meanwhile.
    written.catch(() => {});
    this.#inFlight.push(written);
    this.#totalRows += rows;
    this.#rows = 0;
    for (const part of Object.values(this.#parts)) part.reset();
    this.#resources.reset();
  }

  #column(column: FocusColumn, rows: number): ColumnPages {
    switch (column.part) {
      case "cost":
        return this.#columns.doubles(column.name, this.#costs.subarray(0, rows), false);
      case "quantity":
        return this.#columns.doubles(column.name, this.#quantities.subarray(0, rows), true);
      case "unnamed":
        return this.#columns.dictionary(column.name, "BYTE_ARRAY", [], {
          runs: { values: Int32Array.of(-1), lengths: Int32Array.of(rows), count: 1 },
          rows,
          nullable: true,
          compress: false,
        });
      case "resource": {
        const { ids, runs } = this.#resources;
        return this.#columns.dictionary(column.name, "BYTE_ARRAY", ids, {
          runs,
          rows,
          nullable: true,
          compress: true,
        });
      }
      default: {
        // The column's distinct values among the group's parts, and each part's index among them.
        const { parts, runs } = this.#parts[column.part];
        const at = PLACE_IN_PART.get(column) as number;
        const dictionary: (number | string)[] = [];
        const found = new Map<string | number, number>();
        const partIndex = parts.map((part) => {
          const value = part.values[at] ?? null;
          if (value === null) return -1;
          let index = found.get(value);
          if (index === undefined) {
            index = dictionary.length;
            dictionary.push(value);
            found.set(value, index);
          }
          return index;
        });
        const columnRuns = this.#columnRuns;
        columnRuns.count = runs.count;
        for (let k = 0; k < runs.count; k++)
          columnRuns.values[k] = partIndex[runs.values[k] as number] as number;
        columnRuns.lengths.set(runs.lengths.subarray(0, runs.count));
        const type = column.type === "datetime" ? "INT64" : "BYTE_ARRAY";
        return this.#columns.dictionary(column.name, type, dictionary, {
          runs: columnRuns,
          rows,
          nullable: column.nullable,
          compress: false,
        });
      }
    }
  }
}
