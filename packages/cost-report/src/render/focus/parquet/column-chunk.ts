import { constants, zstdCompress } from "node:zlib";
import { ByteBuffer } from "./byte-buffer.js";
import { type ThriftStruct, writeStruct } from "./thrift.js";

// One column of a row group as Parquet stores it (https://parquet.apache.org/docs/file-format/):
// amounts as PLAIN doubles; every other column as a dictionary of its distinct values and, per
// row, the index of its value, in runs (RLE), since neighbouring rows share their values. Pages
// may be compressed with Zstandard (Node's own zlib; the writer's caller says which).

const TYPE = { INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6 } as const;
const ENCODING = { PLAIN: 0, RLE: 3, RLE_DICTIONARY: 8 } as const;
const PAGE = { DATA: 0, DICTIONARY: 2 } as const;
const CODEC = { UNCOMPRESSED: 0, ZSTD: 6 } as const;
/** Zstandard's fastest level: resource ids (the largest dictionaries) shrink by half. */
const ZSTD_OPTIONS = { chunkSize: 1 << 20, params: { [constants.ZSTD_c_compressionLevel]: 1 } };

export type PhysicalType = keyof typeof TYPE;

interface Page {
  type: (typeof PAGE)[keyof typeof PAGE];
  /** Values in the page (rows, nulls included, for a data page). */
  values: number;
  encoding: number;
  size: number;
  /** As the column's codec left them. */
  bytes: Uint8Array;
}

/**
 * A column chunk's statistics, for an engine to skip row groups: the least and greatest value
 * (PLAIN-encoded, as the format orders its type: doubles and INT64 as numbers, UTF-8 text byte by
 * byte) and the nulls. No min and max where the chunk has no value, or a text value too long to
 * be worth carrying.
 */
export interface Statistics {
  nullCount: number;
  min?: Uint8Array;
  max?: Uint8Array;
}

/** A column of a row group, its pages compressed, not yet placed in the file. */
export interface ColumnPages {
  name: string;
  type: PhysicalType;
  rows: number;
  encodings: number[];
  codec: (typeof CODEC)[keyof typeof CODEC];
  statistics: Statistics;
  pages: Promise<Page[]>;
}

/** Text statistics longer than this are left out: a min or max is copied into every row group's footer. */
const MAX_STATISTIC_BYTES = 256;
const utf8 = new TextEncoder();

/** A double as PLAIN encodes it: 8 bytes, little-endian. */
function plainDouble(value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, value, true);
  return bytes;
}

/** An INT64 as PLAIN encodes it: 8 bytes, little-endian, two's complement. */
function plainInt64(value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, BigInt(value), true);
  return bytes;
}

/**
 * The least and greatest of doubles, NaN left out; a zero minimum is written -0 and a zero maximum
 * +0, as the format asks, since readers may not tell the two apart.
 */
export function doubleStatistics(values: Float64Array): Statistics {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min > max) return { nullCount: 0 };
  return { nullCount: 0, min: plainDouble(min === 0 ? -0 : min), max: plainDouble(max === 0 ? 0 : max) };
}

/** UTF-8 text in the format's order for strings: unsigned bytes, which is code point order. */
function compareText(a: string, b: string): number {
  const [x, y] = [utf8.encode(a), utf8.encode(b)];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

/** The least and greatest of a dictionary's values (every one of them in some row), and the nulls. */
export function dictionaryStatistics(dictionary: readonly (number | string)[], runs: Runs): Statistics {
  let nullCount = 0;
  for (let k = 0; k < runs.count; k++)
    if ((runs.values[k] as number) < 0) nullCount += runs.lengths[k] as number;
  if (dictionary.length === 0) return { nullCount };
  if (typeof dictionary[0] === "number") {
    const numbers = dictionary as readonly number[];
    let [min, max] = [numbers[0] as number, numbers[0] as number];
    for (const v of numbers) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    return { nullCount, min: plainInt64(min), max: plainInt64(max) };
  }
  const texts = dictionary as readonly string[];
  let [min, max] = [texts[0] as string, texts[0] as string];
  // JavaScript's < orders UTF-16 code units, which is byte order but for text beyond U+FFFF: the
  // exact comparison only where the quick one could differ.
  const exact = (a: string, b: string) =>
    /[\ud800-\udfff]/.test(a + b) ? compareText(a, b) : a < b ? -1 : a > b ? 1 : 0;
  for (const v of texts) {
    if (exact(v, min) < 0) min = v;
    if (exact(v, max) > 0) max = v;
  }
  const [low, high] = [utf8.encode(min), utf8.encode(max)];
  return low.length > MAX_STATISTIC_BYTES || high.length > MAX_STATISTIC_BYTES
    ? { nullCount }
    : { nullCount, min: low, max: high };
}

/** A column chunk's bytes, and what the file's footer says of it. */
export interface ColumnChunk {
  bytes: Uint8Array;
  /** Its size were its pages not compressed, headers included: what a row group's total_byte_size adds up. */
  uncompressed: number;
  /** The footer's ColumnChunk struct. */
  meta: ThriftStruct;
}

/**
 * Makes a row group's columns, each as its pages. Pages to compress are compressed in libuv's
 * threads (`zlib`), while the next row group is read; `place` then puts a column in the file, in
 * order, once its pages are ready.
 */
export class ColumnPagesWriter {
  /** Reused for every page: a page is compressed from a copy. */
  readonly #page = new ByteBuffer(1 << 20);
  readonly #levels = new ByteBuffer(1 << 12);
  /** The values of a column to bit-pack, nulls left out. */
  #values = new Int32Array(0);

  /** A required DOUBLE column, PLAIN; `compress`: with Zstandard. */
  doubles(name: string, values: Float64Array, compress: boolean): ColumnPages {
    this.#page.length = 0;
    this.#page.doubles(values);
    const data = (compress ? this.#compressed : this.#uncompressed)(PAGE.DATA, values.length, ENCODING.PLAIN);
    return {
      name,
      type: "DOUBLE",
      rows: values.length,
      encodings: [ENCODING.PLAIN, ENCODING.RLE],
      codec: compress ? CODEC.ZSTD : CODEC.UNCOMPRESSED,
      statistics: doubleStatistics(values),
      pages: data.then((page) => [page]),
    };
  }

  /**
   * A dictionary column: `dictionary` holds the values (INT64 as numbers, BYTE_ARRAY as strings),
   * `runs` the rows' values in order (-1 for null, which only a nullable column has).
   * `compress`: with Zstandard.
   */
  dictionary(
    name: string,
    type: "INT64" | "BYTE_ARRAY",
    dictionary: readonly (number | string)[],
    column: { runs: Runs; rows: number; nullable: boolean; compress: boolean },
  ): ColumnPages {
    const { runs, rows, nullable, compress } = column;
    const page = compress ? this.#compressed : this.#uncompressed;
    this.#page.length = 0;
    for (const value of dictionary) {
      if (typeof value === "number") this.#page.int64(value);
      else this.#page.byteArray(value);
    }
    const dictionaryPage = page(PAGE.DICTIONARY, dictionary.length, ENCODING.PLAIN);
    this.#page.length = 0;
    if (nullable) {
      // Definition levels: 1 where a row has a value, 0 where it is null; their length first.
      this.#levels.length = 0;
      writeLevels(this.#levels, runs);
      this.#page.int32(this.#levels.length);
      this.#page.append(this.#levels.bytes);
    }
    const bitWidth = Math.max(1, Math.ceil(Math.log2(dictionary.length)));
    this.#page.byte(bitWidth);
    // A column null in every row of the group has no value to write: no run at all.
    if (dictionary.length > 0) this.#writeValues(runs, bitWidth);
    const data = page(PAGE.DATA, rows, ENCODING.RLE_DICTIONARY);
    return {
      name,
      type,
      rows,
      encodings: [ENCODING.PLAIN, ENCODING.RLE, ENCODING.RLE_DICTIONARY],
      codec: compress ? CODEC.ZSTD : CODEC.UNCOMPRESSED,
      statistics: dictionaryStatistics(dictionary, runs),
      pages: Promise.all([dictionaryPage, data]),
    };
  }

  /**
   * The RLE/bit-packing hybrid of the values (nulls left out): as runs (each run's length and
   * value) where values repeat, as a row's period or project does; else bit-packed, `bitWidth` bits
   * a value, as a row's charge, which changes with every price component.
   */
  #writeValues(runs: Runs, bitWidth: number): void {
    const width = (bitWidth + 7) >> 3;
    let present = 0;
    for (let k = 0; k < runs.count; k++)
      if ((runs.values[k] as number) >= 0) present += runs.lengths[k] as number;
    // A run takes a byte or two of length and its value; packing takes bitWidth bits a value.
    if (runs.count * (2 + width) <= Math.ceil(present / 8) * bitWidth) {
      let value = -1;
      let count = 0;
      for (let k = 0; k < runs.count; k++) {
        const v = runs.values[k] as number;
        if (v < 0) continue;
        if (v === value) count += runs.lengths[k] as number;
        else {
          if (count > 0) writeRepeat(this.#page, value, count, width);
          value = v;
          count = runs.lengths[k] as number;
        }
      }
      if (count > 0) writeRepeat(this.#page, value, count, width);
      return;
    }
    if (this.#values.length < present) this.#values = new Int32Array(present);
    let at = 0;
    for (let k = 0; k < runs.count; k++) {
      const v = runs.values[k] as number;
      if (v >= 0) for (let n = runs.lengths[k] as number; n > 0; n--) this.#values[at++] = v;
    }
    writePacked(this.#page, this.#values.subarray(0, present), bitWidth);
  }

  readonly #uncompressed = (type: Page["type"], values: number, encoding: number): Promise<Page> => {
    const bytes = this.#page.bytes.slice();
    return Promise.resolve({ type, values, encoding, size: bytes.length, bytes });
  };

  readonly #compressed = (type: Page["type"], values: number, encoding: number): Promise<Page> => {
    const size = this.#page.length;
    return new Promise((resolve, reject) =>
      zstdCompress(this.#page.bytes.slice(), ZSTD_OPTIONS, (error, bytes) =>
        error ? reject(error) : resolve({ type, values, encoding, size, bytes }),
      ),
    );
  };
}

/** A column's pages, their headers first, at `offset` in the file. */
export function place(column: ColumnPages, pages: Page[], offset: number): ColumnChunk {
  const chunk = new ByteBuffer(pages.reduce((sum, p) => sum + p.bytes.length + 64, 0));
  let dictionaryPageOffset: number | undefined;
  let dataPageOffset = offset;
  let uncompressed = 0;
  for (const page of pages) {
    if (page.type === PAGE.DICTIONARY) dictionaryPageOffset = offset + chunk.length;
    else dataPageOffset = offset + chunk.length;
    const before = chunk.length;
    const header: ThriftStruct[number] =
      page.type === PAGE.DICTIONARY
        ? [
            7,
            {
              struct: [
                [1, { i32: page.values }],
                [2, { i32: page.encoding }],
              ],
            },
          ]
        : [
            5,
            {
              struct: [
                [1, { i32: page.values }],
                [2, { i32: page.encoding }],
                [3, { i32: ENCODING.RLE }],
                [4, { i32: ENCODING.RLE }],
              ],
            },
          ];
    writeStruct(chunk, [
      [1, { i32: page.type }],
      [2, { i32: page.size }],
      [3, { i32: page.bytes.length }],
      header,
    ]);
    uncompressed += chunk.length - before + page.size;
    chunk.append(page.bytes);
  }
  const meta: ThriftStruct = [
    [1, { i32: TYPE[column.type] }],
    [2, { list: "i32", of: column.encodings }],
    [3, { list: "binary", of: [column.name] }],
    [4, { i32: column.codec }],
    [5, { i64: column.rows }],
    [6, { i64: uncompressed }],
    [7, { i64: chunk.length }],
    [9, { i64: dataPageOffset }],
  ];
  if (dictionaryPageOffset !== undefined) meta.push([11, { i64: dictionaryPageOffset }]);
  const { nullCount, min, max } = column.statistics;
  // Statistics: 3 null_count, 5 max_value, 6 min_value, 7 and 8 whether they are exact (they are).
  const statistics: ThriftStruct = [[3, { i64: nullCount }]];
  if (min && max)
    statistics.push([5, { binary: max }], [6, { binary: min }], [7, { bool: true }], [8, { bool: true }]);
  meta.push([12, { struct: statistics }]);
  return {
    uncompressed,
    bytes: chunk.bytes,
    meta: [
      [2, { i64: offset }],
      [3, { struct: meta }],
    ],
  };
}

/** Definition levels as runs: 1 for each row with a value, 0 for each null. */
function writeLevels(out: ByteBuffer, runs: Runs): void {
  let level = -1;
  let count = 0;
  for (let k = 0; k < runs.count; k++) {
    const present = (runs.values[k] as number) < 0 ? 0 : 1;
    if (present === level) count += runs.lengths[k] as number;
    else {
      if (count > 0) writeRepeat(out, level, count, 1);
      level = present;
      count = runs.lengths[k] as number;
    }
  }
  if (count > 0) writeRepeat(out, level, count, 1);
}

/** One run: `count` times `value`, in `width` bytes. */
export function writeRepeat(out: ByteBuffer, value: number, count: number, width: number): void {
  out.varint(count * 2);
  for (let b = 0; b < width; b++) out.byte((value >>> (8 * b)) & 0xff);
}

/**
 * One bit-packed run: groups of eight values, least significant bit first, the last padded. A
 * dictionary holds at most a row group's rows, so `bitWidth` is at most 16 and the bits in hand fit
 * 32-bit operators.
 */
export function writePacked(out: ByteBuffer, values: Int32Array, bitWidth: number): void {
  const groups = Math.ceil(values.length / 8);
  out.varint(groups * 2 + 1);
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < groups * 8; i++) {
    buffer |= (values[i] ?? 0) << bits;
    bits += bitWidth;
    while (bits >= 8) {
      out.byte(buffer & 0xff);
      buffer >>>= 8;
      bits -= 8;
    }
  }
}

/** A column's values in runs: `values[k]` (a dictionary index, or -1 for null) for `lengths[k]` rows. */
export interface Runs {
  readonly values: Int32Array;
  readonly lengths: Int32Array;
  readonly count: number;
}

/** Runs recorded as the rows come, a row at a time; room grows as runs come, up to `capacity`. */
export class RunsBuilder implements Runs {
  values: Int32Array;
  lengths: Int32Array;
  count = 0;

  constructor(
    private readonly capacity: number,
    initial = capacity,
  ) {
    this.values = new Int32Array(initial);
    this.lengths = new Int32Array(initial);
  }

  add(value: number): void {
    const last = this.count - 1;
    if (last >= 0 && this.values[last] === value) this.lengths[last] = (this.lengths[last] as number) + 1;
    else {
      if (this.count === this.values.length) this.#grow();
      this.values[this.count] = value;
      this.lengths[this.count] = 1;
      this.count++;
    }
  }

  #grow(): void {
    const size = Math.min(this.capacity, this.values.length * 2);
    const values = new Int32Array(size);
    const lengths = new Int32Array(size);
    values.set(this.values);
    lengths.set(this.lengths);
    this.values = values;
    this.lengths = lengths;
  }
}
