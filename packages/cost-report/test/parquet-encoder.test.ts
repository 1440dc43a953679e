import { describe, expect, it } from "vitest";
import { ByteBuffer } from "../src/render/focus/parquet/byte-buffer.js";
import {
  ColumnPagesWriter,
  dictionaryStatistics,
  doubleStatistics,
  RunsBuilder,
  writePacked,
  writeRepeat,
} from "../src/render/focus/parquet/column-chunk.js";
import { writeStruct } from "../src/render/focus/parquet/thrift.js";

// focus.parquet's encoder, piece by piece, against the bytes the format's own definitions give:
// Thrift's compact protocol (thrift-compact-protocol.md), the RLE/bit-packing hybrid and the
// dictionary pages (parquet-format's Encodings.md), and the statistics' order (parquet.thrift).

const bytes = (write: (out: ByteBuffer) => void) => {
  const out = new ByteBuffer(64);
  write(out);
  return [...out.bytes];
};

describe("Thrift compact protocol", () => {
  it("writes a field's id as a delta in its header when 1 to 15, else a zigzag varint after it", () => {
    // 0x15: delta 1, type i32 (5); 150 zigzag is 300: varint AC 02; then the stop field.
    expect(bytes((o) => writeStruct(o, [[1, { i32: 150 }]]))).toEqual([0x15, 0xac, 0x02, 0x00]);
    // Field 20 after none: delta 20 > 15, so type byte 0x05 then id zigzag 40 (0x28).
    expect(bytes((o) => writeStruct(o, [[20, { i32: -1 }]]))).toEqual([0x05, 0x28, 0x01, 0x00]);
  });

  it("writes booleans in the field header, i64 beyond 32 bits, binary with its length, lists and structs", () => {
    expect(
      bytes((o) =>
        writeStruct(o, [
          [1, { bool: true }],
          [2, { bool: false }],
        ]),
      ),
    ).toEqual([0x11, 0x12, 0x00]);
    // 2^40 zigzag is 2^41: varint 80 80 80 80 80 40.
    expect(bytes((o) => writeStruct(o, [[1, { i64: 2 ** 40 }]]))).toEqual([
      0x16, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 0x00,
    ]);
    expect(bytes((o) => writeStruct(o, [[1, { binary: "ab" }]]))).toEqual([0x18, 0x02, 0x61, 0x62, 0x00]);
    // A list's header: size 3 and element type i32 in one byte (0x35).
    expect(bytes((o) => writeStruct(o, [[1, { list: "i32", of: [1, 2, 3] }]]))).toEqual([
      0x19, 0x35, 0x02, 0x04, 0x06, 0x00,
    ]);
    // 16 elements: size in a varint after 0xF5.
    expect(bytes((o) => writeStruct(o, [[1, { list: "i32", of: Array(16).fill(0) }]])).slice(0, 3)).toEqual([
      0x19, 0xf5, 0x10,
    ]);
    expect(bytes((o) => writeStruct(o, [[1, { struct: [[1, { i32: 1 }]] }]]))).toEqual([
      0x1c, 0x15, 0x02, 0x00, 0x00,
    ]);
  });
});

describe("RLE/bit-packing hybrid", () => {
  it("bit-packs as Encodings.md's example: 0 to 7 at 3 bits is 88 C6 FA after the header", () => {
    // Header: one group of eight, (1 << 1) | 1.
    expect(bytes((o) => writePacked(o, Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7]), 3))).toEqual([
      0x03, 0x88, 0xc6, 0xfa,
    ]);
    // Nine values are two groups, the last padded with zeros.
    expect(bytes((o) => writePacked(o, Int32Array.from([1, 1, 1, 1, 1, 1, 1, 1, 1]), 1))).toEqual([
      0x05, 0xff, 0x01,
    ]);
  });

  it("writes a run as its length shifted left by one, then the value in the bytes of its width", () => {
    expect(bytes((o) => writeRepeat(o, 5, 100, 1))).toEqual([0xc8, 0x01, 0x05]);
    expect(bytes((o) => writeRepeat(o, 300, 3, 2))).toEqual([0x06, 0x2c, 0x01]);
  });
});

describe("dictionary pages", () => {
  const runs = (...pairs: Array<[value: number, length: number]>) => {
    const built = new RunsBuilder(64);
    for (const [value, length] of pairs) for (let i = 0; i < length; i++) built.add(value);
    return built;
  };

  it("writes the dictionary PLAIN and the rows as the bit width, then runs or packed values", async () => {
    const writer = new ColumnPagesWriter();
    const column = writer.dictionary("c", "BYTE_ARRAY", ["a", "bc"], {
      runs: runs([0, 40], [1, 40]),
      rows: 80,
      nullable: false,
      compress: false,
    });
    const [dictionary, data] = await column.pages;
    // PLAIN BYTE_ARRAY: a 4-byte little-endian length, then the bytes.
    expect([...(dictionary?.bytes ?? [])]).toEqual([1, 0, 0, 0, 0x61, 2, 0, 0, 0, 0x62, 0x63]);
    // Bit width 1; two runs of 40: varint 80 (0x50) and the value in one byte.
    expect([...(data?.bytes ?? [])]).toEqual([0x01, 0x50, 0x00, 0x50, 0x01]);
  });

  it("writes definition levels for a nullable column, and no value run for a column null in every row", async () => {
    const writer = new ColumnPagesWriter();
    const someNull = await writer.dictionary("c", "INT64", [7], {
      runs: runs([-1, 2], [0, 3]),
      rows: 5,
      nullable: true,
      compress: false,
    }).pages;
    // Levels (length 4, then runs 2×0 and 3×1 at width 1), bit width 1, then the 3 values bit-packed
    // (one group: smaller than a run here).
    expect([...(someNull[1]?.bytes ?? [])]).toEqual([4, 0, 0, 0, 0x04, 0x00, 0x06, 0x01, 0x01, 0x03, 0x00]);
    const allNull = await writer.dictionary("c", "BYTE_ARRAY", [], {
      runs: runs([-1, 5]),
      rows: 5,
      nullable: true,
      compress: false,
    }).pages;
    expect([...(allNull[1]?.bytes ?? [])]).toEqual([2, 0, 0, 0, 0x0a, 0x00, 0x01]);
  });
});

describe("statistics", () => {
  const double = (b: Uint8Array | undefined) => (b ? new DataView(b.buffer).getFloat64(0, true) : undefined);

  it("give doubles' least and greatest, a zero minimum as -0 and a zero maximum as +0", () => {
    const stats = doubleStatistics(Float64Array.from([3.5, -0, 12.25, 0]));
    expect(Object.is(double(stats.min), -0)).toBe(true);
    expect(double(stats.max)).toBe(12.25);
    const zeros = doubleStatistics(Float64Array.from([-0, 0]));
    expect(Object.is(double(zeros.max), 0)).toBe(true);
    expect(doubleStatistics(Float64Array.from([Number.NaN])).min).toBeUndefined();
  });

  it("order text as UTF-8 bytes (code points), not as JavaScript's UTF-16 units, and count nulls", () => {
    const built = new RunsBuilder(8);
    for (const v of [0, -1, 1, -1, 2]) built.add(v);
    const stats = dictionaryStatistics(["\ufffd", "😀", "a"], built);
    expect(new TextDecoder().decode(stats.min)).toBe("a");
    expect(new TextDecoder().decode(stats.max)).toBe("😀");
    expect(stats.nullCount).toBe(2);
    const int64 = dictionaryStatistics([1_700_000_000_000, 1_600_000_000_000], built);
    expect(new DataView((int64.min as Uint8Array).buffer).getBigInt64(0, true)).toBe(1_600_000_000_000n);
  });
});
