// The bytes of a page or of the file's footer as they are made: a buffer that grows, with the few
// encodings Parquet's pages and Thrift's compact protocol need.

const utf8 = new TextEncoder();
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export class ByteBuffer {
  #bytes: Uint8Array;
  #view: DataView;
  length = 0;

  constructor(capacity = 1 << 16) {
    this.#bytes = new Uint8Array(capacity);
    this.#view = new DataView(this.#bytes.buffer);
  }

  /** What was written, without a copy (valid until the next write). */
  get bytes(): Uint8Array {
    return this.#bytes.subarray(0, this.length);
  }

  byte(value: number): void {
    this.#room(1);
    this.#bytes[this.length++] = value;
  }

  /** An unsigned LEB128 varint; exact up to 2^53 (file offsets), so without 32-bit operators. */
  varint(value: number): void {
    this.#room(10);
    let rest = value;
    while (rest >= 0x80) {
      this.#bytes[this.length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.#bytes[this.length++] = rest;
  }

  int32(value: number): void {
    this.#room(4);
    this.#view.setInt32(this.length, value, true);
    this.length += 4;
  }

  int64(value: number): void {
    this.#room(8);
    this.#view.setBigInt64(this.length, BigInt(value), true);
    this.length += 8;
  }

  /** A string as Parquet's PLAIN BYTE_ARRAY: its UTF-8 length, then its UTF-8. */
  byteArray(value: string): void {
    // Room for the worst case: three bytes for each UTF-16 unit.
    this.#room(4 + value.length * 3);
    const { written } = utf8.encodeInto(value, this.#bytes.subarray(this.length + 4));
    this.int32(written);
    this.length += written;
  }

  append(bytes: Uint8Array): void {
    this.#room(bytes.length);
    this.#bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Doubles as Parquet stores them, little-endian: the array's own bytes where the machine is. */
  doubles(values: Float64Array): void {
    if (LITTLE_ENDIAN) {
      this.append(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
      return;
    }
    this.#room(values.length * 8);
    for (const value of values) {
      this.#view.setFloat64(this.length, value, true);
      this.length += 8;
    }
  }

  #room(more: number): void {
    if (this.length + more <= this.#bytes.length) return;
    const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.length + more));
    grown.set(this.bytes);
    this.#bytes = grown;
    this.#view = new DataView(grown.buffer);
  }
}
