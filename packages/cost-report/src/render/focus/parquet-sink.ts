import { BUILD, VERSION } from "../../version.js";
import { LineFile } from "../line-file.js";
import { columnsOf, FOCUS_COLUMNS, FOCUS_VERSION, type FocusColumn, type SharedPart } from "./columns.js";
import { ByteBuffer } from "./parquet/byte-buffer.js";
import { type ColumnPages, ColumnPagesWriter, place, RunsBuilder } from "./parquet/column-chunk.js";
import { type ThriftStruct, writeStruct } from "./parquet/thrift.js";
import type { FocusParts } from "./parts.js";
import type { FocusSink } from "./rows.js";

// focus.parquet: the rows of focus.csv with typed columns (amounts DOUBLE, the values the platform
// sent, exactly; date-times TIMESTAMP in UTC; strings UTF-8), written a few row groups at a time as
// the usage is read, so memory holds one row group's rows whatever the report's size. Each row
// group holds one ServiceName (the rows of a stretch of time, by service): a reader filtering on a
// service skips the others' groups, as one filtering on a day skips other stretches'.
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

/** Room for a few runs at first: a group of one service may stay small (see `GroupRows`). */
const FIRST_ROOM = 1_024;

/**
 * Each shared part's rows in a row group: which part a row has, by its number in the group, in
 * runs. Its columns are written from those runs: a period or a project spans many rows, so each of
 * their columns costs a step per run, not per row.
 */
class PartRows {
  readonly runs = new RunsBuilder(ROW_GROUP_ROWS, FIRST_ROOM);
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
}

/**
 * The row group's resource ids, as a dictionary and each row's index in it (-1: none), in runs.
 * The dictionary is the ids in the order their runs come, a resource seen again (a later day)
 * again: looking each up (a hash of each id) took more time than the rest of the file, and the
 * column is compressed, so the repeats cost little room.
 */
class ResourceRows {
  readonly runs = new RunsBuilder(ROW_GROUP_ROWS, FIRST_ROOM);
  ids: string[] = [];
  #last: string | undefined;

  add(id: string | null): void {
    if (id !== null && id !== this.#last) this.ids.push(id);
    this.#last = id ?? undefined;
    this.runs.add(id === null ? -1 : this.ids.length - 1);
  }
}

/** The rows of one row group on their way: one service's (see `FocusParquet`). */
class GroupRows {
  costs = new Float64Array(FIRST_ROOM);
  quantities = new Float64Array(FIRST_ROOM);
  readonly parts: Record<SharedPart, PartRows> = {
    period: new PartRows(),
    charge: new PartRows(),
    owner: new PartRows(),
  };
  readonly resources = new ResourceRows();
  rows = 0;

  add(
    period: FocusParts<"period">,
    charge: FocusParts<"charge">,
    owner: FocusParts<"owner">,
    resourceId: string | null,
    cost: number,
    quantity: number,
  ): void {
    if (this.rows === this.costs.length) {
      this.costs = grown(this.costs);
      this.quantities = grown(this.quantities);
    }
    this.costs[this.rows] = cost;
    this.quantities[this.rows] = quantity;
    this.rows += 1;
    this.parts.period.add(period);
    this.parts.charge.add(charge);
    this.parts.owner.add(owner);
    this.resources.add(resourceId);
  }
}

const grown = (values: Float64Array) => {
  const more = new Float64Array(Math.min(ROW_GROUP_ROWS, values.length * 2));
  more.set(values);
  return more;
};

/** Where ServiceName sits in a charge's values. */
const SERVICE_IN_CHARGE = columnsOf("charge").findIndex((c) => c.name === "ServiceName");

export class FocusParquet implements FocusSink {
  readonly #columns = new ColumnPagesWriter();
  /**
   * The rows on their way, a row group per service: each row group holds one ServiceName, so its
   * statistics let a reader skip the groups of other services (min = max). Together they hold at
   * most ROW_GROUP_ROWS rows: memory holds one row group's rows, as before, in a few groups.
   */
  #groups = new Map<string | number | null, GroupRows>();
  /** The group of the last row's charge: neighbouring rows often share it, no lookup for those. */
  #lastCharge: FocusParts<"charge"> | undefined;
  #lastGroup: GroupRows | undefined;
  #rows = 0;
  /** The runs of the column being written (a part's runs, each part as its value's index). */
  readonly #columnRuns = new RunsBuilder(ROW_GROUP_ROWS);
  #totalRows = 0;
  /** Where the next bytes go in the file. */
  #offset = MAGIC.length;
  #rowGroups: ThriftStruct[] = [];
  /** Row groups on their way to the disk (compressing, then written in order). */
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
    let group = this.#lastGroup;
    if (charge !== this.#lastCharge || !group) {
      const service = charge.values[SERVICE_IN_CHARGE] ?? null;
      group = this.#groups.get(service);
      if (!group) {
        group = new GroupRows();
        this.#groups.set(service, group);
      }
      this.#lastCharge = charge;
      this.#lastGroup = group;
    }
    group.add(period, charge, owner, resourceId, cost, quantity);
    if (++this.#rows === ROW_GROUP_ROWS) this.#writeGroups();
  }

  /** The disk's pace, and the row groups before the last: memory holds their compression at most. */
  async drained(): Promise<void> {
    while (this.#inFlight.length > 1) await this.#inFlight.shift();
    await this.file.drained();
  }

  async close(): Promise<void> {
    if (this.#rows > 0) this.#writeGroups();
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

  /** The buffered rows as row groups, a service's each, in the order the services came. */
  #writeGroups(): void {
    for (const group of this.#groups.values()) this.#writeGroup(group);
    this.#groups = new Map();
    this.#lastCharge = undefined;
    this.#lastGroup = undefined;
    this.#rows = 0;
  }

  /**
   * A group's rows as a row group: its columns made now, compressed in the background, and
   * written after the group before it, in order.
   */
  #writeGroup(group: GroupRows): void {
    const { rows } = group;
    const columns = FOCUS_COLUMNS.map((column) => this.#column(column, group));
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
  }

  #column(column: FocusColumn, group: GroupRows): ColumnPages {
    const { rows } = group;
    switch (column.part) {
      case "cost":
        return this.#columns.doubles(column.name, group.costs.subarray(0, rows), false);
      case "quantity":
        return this.#columns.doubles(column.name, group.quantities.subarray(0, rows), true);
      case "unnamed":
        return this.#columns.dictionary(column.name, "BYTE_ARRAY", [], {
          runs: { values: Int32Array.of(-1), lengths: Int32Array.of(rows), count: 1 },
          rows,
          nullable: true,
          compress: false,
        });
      case "resource": {
        const { ids, runs } = group.resources;
        return this.#columns.dictionary(column.name, "BYTE_ARRAY", ids, {
          runs,
          rows,
          nullable: true,
          compress: true,
        });
      }
      default: {
        // The column's distinct values among the group's parts, and each part's index among them.
        const { parts, runs } = group.parts[column.part];
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
