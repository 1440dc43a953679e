import type { ByteBuffer } from "./byte-buffer.js";

// Thrift's compact protocol, as far as Parquet's footer and page headers use it: structs of
// integers, strings, booleans, lists and structs (https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md).

export type ThriftValue =
  | { i32: number }
  | { i64: number }
  | { bool: boolean }
  | { binary: string | Uint8Array }
  | { list: "i32"; of: number[] }
  | { list: "binary"; of: string[] }
  | { list: "struct"; of: ThriftStruct[] }
  | { struct: ThriftStruct };

/** A struct's fields by id, in ascending order; an absent optional field is left out. */
export type ThriftStruct = Array<[id: number, value: ThriftValue]>;

const TYPE = { true: 1, false: 2, i32: 5, i64: 6, binary: 8, list: 9, struct: 12 } as const;
const text = new TextEncoder();

export function writeStruct(out: ByteBuffer, fields: ThriftStruct): void {
  let last = 0;
  for (const [id, value] of fields) {
    const type = typeOf(value);
    // The field header holds the id's distance from the last one when it is 1 to 15.
    if (id > last && id - last <= 15) out.byte(((id - last) << 4) | type);
    else {
      out.byte(type);
      out.varint(zigzag(id));
    }
    last = id;
    if (!("bool" in value)) writeValue(out, value);
  }
  out.byte(0);
}

function typeOf(value: ThriftValue): number {
  if ("bool" in value) return value.bool ? TYPE.true : TYPE.false;
  if ("i32" in value) return TYPE.i32;
  if ("i64" in value) return TYPE.i64;
  if ("binary" in value) return TYPE.binary;
  if ("list" in value) return TYPE.list;
  return TYPE.struct;
}

function writeValue(out: ByteBuffer, value: ThriftValue): void {
  if ("i32" in value) out.varint(zigzag(value.i32));
  else if ("i64" in value) out.varint(zigzag(value.i64));
  else if ("binary" in value) writeBinary(out, value.binary);
  else if ("struct" in value) writeStruct(out, value.struct);
  else if ("list" in value) {
    const size = value.of.length;
    const type = TYPE[value.list];
    if (size < 15) out.byte((size << 4) | type);
    else {
      out.byte(0xf0 | type);
      out.varint(size);
    }
    if (value.list === "i32") for (const item of value.of) out.varint(zigzag(item));
    else if (value.list === "binary") for (const item of value.of) writeBinary(out, item);
    else for (const item of value.of) writeStruct(out, item);
  }
}

function writeBinary(out: ByteBuffer, value: string | Uint8Array): void {
  const bytes = typeof value === "string" ? text.encode(value) : value;
  out.varint(bytes.length);
  out.append(bytes);
}

/** Zigzag: small negative numbers stay short. Exact beyond 32 bits (i64 offsets). */
const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1);
