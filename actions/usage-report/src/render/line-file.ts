import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { decimalText, exactMillionths } from "../decimal.js";

// A report file written line by line while the usage is read: lines are copied into a buffer
// handed to the disk when full, the disk's pace is waited for between batches, and the file gets
// its name only once it is complete (until then it is NAME.partial, removed when the report fails).
// Pieces are copied one by one on purpose: joining millions of small strings into one and encoding
// that costs more than building them did.

const BUFFER_BYTES = 1 << 20;
/** A sign, 9 whole digits, a point and 6 decimals (`exactMillionths` is below 10^15). */
const MAX_DECIMAL_BYTES = 17;
const [MINUS, DOT, ZERO] = [0x2d, 0x2e, 0x30];
/** The most UTF-8 bytes one UTF-16 code unit becomes (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;

export class LineFile {
  readonly #out: WriteStream;
  #buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  #used = 0;

  private constructor(
    readonly path: string,
    private readonly partial: string,
  ) {
    this.#out = createWriteStream(partial);
  }

  static open(path: string): LineFile {
    return new LineFile(path, `${path}.partial`);
  }

  async write(text: string): Promise<void> {
    this.text(text);
    await this.drained();
  }

  /** A batch of lines (a team's, a bucket's), then the disk's pace. */
  async writeAll(lines: Iterable<string>): Promise<void> {
    for (const line of lines) this.text(line);
    await this.drained();
  }

  /** A piece of a line, as UTF-8. Between batches of pieces, wait for `drained()`. */
  text(text: string): void {
    if (!this.#room(text.length * MAX_BYTES_PER_UNIT)) {
      this.#out.write(text);
      return;
    }
    this.#used += this.#buffer.write(text, this.#used);
  }

  /** A piece of a line already encoded: the cells that millions of rows share, encoded once. */
  bytes(bytes: Uint8Array): void {
    if (!this.#room(bytes.length)) {
      this.#out.write(bytes);
      return;
    }
    this.#buffer.set(bytes, this.#used);
    this.#used += bytes.length;
  }

  /**
   * A JSON amount as `decimalText` writes it. One of at most six decimals (what the platform
   * sends) is written digit by digit, without making a string: the amounts of millions of rows.
   */
  decimal(value: number): void {
    const micros = exactMillionths(value);
    if (micros === undefined) {
      this.text(decimalText(value));
      return;
    }
    this.#room(MAX_DECIMAL_BYTES);
    const buffer = this.#buffer;
    let at = this.#used;
    if (micros < 0) buffer[at++] = MINUS;
    const abs = Math.abs(micros);
    let whole = Math.floor(abs / 1e6);
    let fraction = abs - whole * 1e6;
    // The whole part's digits, last first, from the end of their place.
    let digits = 1;
    for (let rest = whole; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
    for (let i = at + digits - 1; i >= at; i -= 1) {
      buffer[i] = ZERO + (whole % 10);
      whole = Math.floor(whole / 10);
    }
    at += digits;
    if (fraction !== 0) {
      buffer[at++] = DOT;
      for (let place = 100_000; fraction !== 0; place /= 10) {
        const digit = Math.floor(fraction / place);
        buffer[at++] = ZERO + digit;
        fraction -= digit * place;
      }
    }
    this.#used = at;
  }

  /** Resolves once the disk has caught up with what was handed to it. */
  async drained(): Promise<void> {
    if (this.#out.writableNeedDrain) await once(this.#out, "drain");
  }

  /** Writes what is left and gives the file its name. */
  async close(): Promise<void> {
    this.#handOver();
    this.#out.end();
    await once(this.#out, "finish");
    await rename(this.partial, this.path);
  }

  /** For a report that failed: no half file is left where a whole one is expected. */
  async discard(): Promise<void> {
    this.#out.destroy();
    await rm(this.partial, { force: true });
  }

  /** Whether `bytes` fit in the buffer, handing a full one to the stream first. */
  #room(bytes: number): boolean {
    if (bytes <= this.#buffer.length - this.#used) return true;
    this.#handOver();
    return bytes <= this.#buffer.length;
  }

  /** The buffer goes to the stream, which holds it until written: the next lines get a new one. */
  #handOver(): void {
    if (this.#used === 0) return;
    this.#out.write(this.#buffer.subarray(0, this.#used));
    this.#buffer = Buffer.allocUnsafe(BUFFER_BYTES);
    this.#used = 0;
  }
}
