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
/** The two ASCII digits of 0 to 99, at 2 × n. */
const DIGIT_PAIRS = Uint8Array.from({ length: 200 }, (_, i) =>
  i % 2 ? ZERO + ((i >> 1) % 10) : ZERO + Math.floor(i / 20),
);
/** The most UTF-8 bytes one UTF-16 code unit becomes (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;

export class LineFile {
  readonly #out: WriteStream;
  /** Rejects with the stream's first error (a full disk): awaited wherever the file is waited for. */
  readonly #failed: Promise<never>;
  #buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  #used = 0;

  private constructor(
    readonly path: string,
    private readonly partial: string,
  ) {
    this.#out = createWriteStream(partial);
    // The stream's first error, awaited beside every wait for the stream: an error between waits
    // would otherwise be an unhandled 'error' event, a crash.
    this.#failed = once(this.#out, "error").then(([error]) => Promise.reject(error));
    this.#failed.catch(() => {});
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
    this.#used = writeMillionths(this.#buffer, this.#used, micros);
  }

  /** Resolves once the disk has caught up with what was handed to it. */
  async drained(): Promise<void> {
    if (this.#out.errored) await this.#failed;
    if (this.#out.writableNeedDrain) await Promise.race([once(this.#out, "drain"), this.#failed]);
  }

  /** Writes what is left and gives the file its name. */
  async close(): Promise<void> {
    this.#handOver();
    this.#out.end();
    await Promise.race([once(this.#out, "finish"), this.#failed]);
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

/**
 * Writes a count of millionths as decimal text at `at` (no exponent, no trailing zeros) and
 * returns where it ends. Integer arithmetic only: `| 0` keeps V8 on small integers, which is what
 * makes this cheaper than making the number's text (whole parts are below 10^9).
 */
function writeMillionths(buffer: Buffer, start: number, count: number): number {
  let at = start;
  let micros = count;
  if (micros < 0) {
    buffer[at++] = MINUS;
    micros = -micros;
  }
  let whole = (micros / 1e6) | 0;
  const fraction = (micros - whole * 1e6) | 0;
  let digits = 1;
  for (let rest = whole; rest >= 10; rest = (rest / 10) | 0) digits += 1;
  for (let i = at + digits - 1; i >= at; i -= 1) {
    const tens = (whole / 10) | 0;
    buffer[i] = ZERO + whole - tens * 10;
    whole = tens;
  }
  at += digits;
  if (fraction === 0) return at;
  // Six places, two at a time, then the trailing zeros taken back.
  buffer[at] = DOT;
  const high = (fraction / 10_000) | 0;
  const rest = fraction - high * 10_000;
  const middle = (rest / 100) | 0;
  const low = rest - middle * 100;
  buffer[at + 1] = DIGIT_PAIRS[2 * high] as number;
  buffer[at + 2] = DIGIT_PAIRS[2 * high + 1] as number;
  buffer[at + 3] = DIGIT_PAIRS[2 * middle] as number;
  buffer[at + 4] = DIGIT_PAIRS[2 * middle + 1] as number;
  buffer[at + 5] = DIGIT_PAIRS[2 * low] as number;
  buffer[at + 6] = DIGIT_PAIRS[2 * low + 1] as number;
  at += 7;
  while (buffer[at - 1] === ZERO) at -= 1;
  return at;
}
