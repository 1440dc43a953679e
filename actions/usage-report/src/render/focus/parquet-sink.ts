import type { ParquetWriter } from "hyparquet-writer";
import { LineFile } from "../line-file.js";
import { columnsOf, FOCUS_COLUMNS, type FocusColumn, type FocusValue, type SharedPart } from "./columns.js";
import type { FocusParts } from "./parts.js";
import type { FocusSink } from "./rows.js";

// focus.parquet: the rows of focus.csv with typed columns (amounts DOUBLE, the values the platform
// sent, exactly; date-times TIMESTAMP in UTC; strings UTF-8), written a row group at a time as the
// usage is read, so memory holds one row group whatever the report's size.
//
// The writer is hyparquet-writer (pure JavaScript), chosen on measurement (usage-report's README):
// it is imported only when focus-parquet is asked for, so no other report loads it.
// Column statistics are off: they doubled the time to encode a row group.

/** Rows per row group: a few megabytes encoded, and what memory holds of the file. */
const ROW_GROUP_ROWS = 50_000;

type Schema = ConstructorParameters<typeof ParquetWriter>[0]["schema"];
type Encoded = Uint8Array | number | null;

const PHYSICAL = {
  decimal: { type: "DOUBLE" },
  datetime: { type: "INT64", logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" } },
  string: { type: "BYTE_ARRAY", converted_type: "UTF8" },
} as const;

const schema = (): Schema => [
  { name: "schema", num_children: FOCUS_COLUMNS.length },
  ...FOCUS_COLUMNS.map((c) => ({
    name: c.name,
    ...PHYSICAL[c.type],
    repetition_type: c.nullable ? ("OPTIONAL" as const) : ("REQUIRED" as const),
  })),
];

/** Where a column's values come from in the buffered rows. */
const SOURCES = FOCUS_COLUMNS.map((column) => ({
  column,
  index: columnsOf(column.part).indexOf(column),
}));

export class FocusParquet implements FocusSink {
  readonly #encoded = new WeakMap<FocusParts, Encoded[]>();
  readonly #text = new TextEncoder();
  #rows = 0;
  #costs = new Float64Array(ROW_GROUP_ROWS);
  #quantities = new Float64Array(ROW_GROUP_ROWS);
  #resources: (Uint8Array | null)[] = [];
  /**
   * The row group's resource ids, each encoded once: a resource has a row per price component, and
   * the writer's dictionary finds a value it has seen by identity before it compares bytes.
   */
  #resourceIds = new Map<string, Uint8Array>();
  #periods: FocusParts[] = [];
  #charges: FocusParts[] = [];
  #owners: FocusParts[] = [];
  /** The last row group handed to the disk, until the disk has it. */
  #pending: Promise<void> | undefined;

  private constructor(
    private readonly file: LineFile,
    private readonly writer: ParquetWriter,
  ) {}

  static async open(path: string): Promise<FocusParquet> {
    const { ByteWriter, ParquetWriter } = await import("hyparquet-writer");
    const file = LineFile.open(path);
    const bytes = new ByteWriter(1 << 20);
    // Each row group's bytes go to the file as soon as they are made; the buffer is then reused.
    const flush = () => {
      file.bytes(new Uint8Array(bytes.buffer.slice(0, bytes.index)));
      bytes.index = 0;
      return file.drained();
    };
    Object.assign(bytes, { flush, finish: flush });
    const writer = new ParquetWriter({
      writer: bytes,
      schema: schema(),
      statistics: false,
      createdBy: "cwp usage-report",
    });
    return new FocusParquet(file, writer);
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
    this.#resources.push(resourceId === null ? null : this.#resourceId(resourceId));
    this.#periods.push(period);
    this.#charges.push(charge);
    this.#owners.push(owner);
    if (this.#rows === ROW_GROUP_ROWS) this.#writeGroup();
  }

  async drained(): Promise<void> {
    await this.#pending;
  }

  async close(): Promise<void> {
    if (this.#rows > 0) this.#writeGroup();
    await this.#pending;
    await this.writer.finish();
    await this.file.close();
  }

  discard(): Promise<void> {
    return this.file.discard();
  }

  /** The buffered rows as a row group: encoded at once, then on their way to the disk. */
  #writeGroup(): void {
    const rows = this.#rows;
    const shared = {
      period: this.#periods.map((p) => this.#encode(p)),
      charge: this.#charges.map((p) => this.#encode(p)),
      owner: this.#owners.map((p) => this.#encode(p)),
    };
    const columnData = SOURCES.map(({ column, index }) => ({
      name: column.name,
      data: this.#column(column, index, rows, shared),
      // Amounts and quantities are almost all distinct: the writer need not try a dictionary.
      ...(column.type === "decimal" ? { encoding: "PLAIN" as const } : {}),
    }));
    const previous = this.#pending;
    const written = this.writer.write({ columnData, rowGroupSize: rows });
    this.#pending = Promise.all([previous, written]).then(() => {});
    // A failed write is reported where the file is next waited for, not as unhandled meanwhile.
    this.#pending.catch(() => {});
    this.#rows = 0;
    this.#costs = new Float64Array(ROW_GROUP_ROWS);
    this.#quantities = new Float64Array(ROW_GROUP_ROWS);
    this.#resources = [];
    this.#resourceIds = new Map();
    this.#periods = [];
    this.#charges = [];
    this.#owners = [];
  }

  #column(
    column: FocusColumn,
    index: number,
    rows: number,
    shared: Record<SharedPart, Encoded[][]>,
  ): Float64Array | (Uint8Array | null)[] | Encoded[] {
    switch (column.part) {
      case "cost":
        return this.#costs.subarray(0, rows);
      case "quantity":
        return this.#quantities.subarray(0, rows);
      case "resource":
        return this.#resources;
      default: {
        const parts = shared[column.part];
        const values = new Array<Encoded>(rows);
        for (let row = 0; row < rows; row++) values[row] = parts[row]?.[index] ?? null;
        return values;
      }
    }
  }

  #resourceId(id: string): Uint8Array {
    let bytes = this.#resourceIds.get(id);
    if (!bytes) {
      bytes = this.#text.encode(id);
      this.#resourceIds.set(id, bytes);
    }
    return bytes;
  }

  /** A shared part's values as the writer takes them, encoded once for all its rows. */
  #encode(parts: FocusParts): Encoded[] {
    let encoded = this.#encoded.get(parts);
    if (!encoded) {
      encoded = parts.values.map((v: FocusValue) => (typeof v === "string" ? this.#text.encode(v) : v));
      this.#encoded.set(parts, encoded);
    }
    return encoded;
  }
}
