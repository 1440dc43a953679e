import type { Amounts } from "./ledger.js";
import { PRICE_COMPONENTS, priceMicros, USAGE_QUANTITIES } from "./money.js";

// JSON written straight into bytes, for the usage lists' hierarchy: a large organisation's entry
// holds millions of amounts, and making each as a string, joining them and encoding the result cost
// the emulator as much CPU as reading the answer costs a client, on the same machine in every test
// and benchmark. Amounts are written digit by digit from their integer millionths; the text is what
// `JSON.stringify(priced(a))` writes (tested against it).

const encoded = (text: string) => Buffer.from(text, "latin1");
const PRICE_TOTAL = encoded('"price":{"total":');
/** Each member's key (with what comes before it) encoded once, and the amount it holds. */
const MEMBERS = [
  ...PRICE_COMPONENTS.map(([name, at]) => [encoded(`,"${name}":`), at] as const),
  ...USAGE_QUANTITIES.map(
    ([name, at], i) => [encoded(`${i === 0 ? '},"usage":{' : ","}"${name}":`), at] as const,
  ),
];
const ZERO = 0x30;

export class JsonBytes {
  #buf = Buffer.allocUnsafe(64 * 1024);
  #at = 0;

  /** What was written since the last take, as a buffer of its own (the writer's is reused). */
  take(): Buffer {
    const out = Buffer.from(this.#buf.subarray(0, this.#at));
    this.#at = 0;
    return out;
  }

  /** Bytes written as they are: JSON text encoded once (ids, keys, punctuation). */
  bytes(bytes: Uint8Array): this {
    const length = bytes.length;
    this.#ensure(length);
    // Most are a few bytes (keys, ids), where a loop is faster than `set`.
    if (length > 64) this.#buf.set(bytes, this.#at);
    else for (let i = 0; i < length; i++) this.#buf[this.#at + i] = bytes[i] as number;
    this.#at += length;
    return this;
  }

  byte(byte: number): this {
    this.#ensure(1);
    this.#buf[this.#at++] = byte;
    return this;
  }

  /** The `price` and `usage` members of `priced(a)` (without braces). */
  priced(a: Amounts): this {
    this.bytes(PRICE_TOTAL).#scaled(Math.round(priceMicros(a) / 10_000), 2, 100);
    for (const [key, at] of MEMBERS) this.bytes(key).#precise(a[at] ?? 0);
    return this.byte(0x7d);
  }

  #precise(micros: number): void {
    this.#scaled(Math.round(micros), 6, 1_000_000);
  }

  /** `value / scale` for an integer `value`, as JSON writes it (up to 15 significant digits). */
  #scaled(value: number, places: number, scale: number): void {
    if (value === 0) {
      this.byte(ZERO);
      return;
    }
    if (Math.abs(value) >= 1e15) {
      this.bytes(encoded(JSON.stringify(value / scale)));
      return;
    }
    if (value < 0) this.byte(0x2d);
    const abs = Math.abs(value);
    const whole = Math.floor(abs / scale);
    let fraction = abs - whole * scale;
    this.#digits(whole, 0);
    if (fraction === 0) return;
    let width = places;
    while (fraction % 10 === 0) {
      fraction /= 10;
      width -= 1;
    }
    this.byte(0x2e).#digits(fraction, width);
  }

  /** A non-negative integer below 10^15, in at least `width` digits (leading zeros). */
  #digits(n: number, width: number): void {
    // Below 2^31 (nearly every amount's parts) in 32-bit integer steps, else in doubles.
    const small = n < 2 ** 31;
    let length = 1;
    for (let rest = n; rest >= 10; rest = small ? (rest / 10) | 0 : Math.floor(rest / 10)) length += 1;
    if (length < width) length = width;
    this.#ensure(length);
    const buf = this.#buf;
    let rest = n;
    for (let at = this.#at + length - 1; at >= this.#at; at -= 1) {
      const next = small ? (rest / 10) | 0 : Math.floor(rest / 10);
      buf[at] = ZERO + rest - next * 10;
      rest = next;
    }
    this.#at += length;
  }

  #ensure(more: number): void {
    if (this.#at + more <= this.#buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.#buf.length, this.#at + more));
    this.#buf.copy(grown, 0, 0, this.#at);
    this.#buf = grown;
  }
}
