import type { Amounts } from "./ledger.js";
import { PRICE_COMPONENTS, priceMicros, USAGE_QUANTITIES } from "./money.js";

// JSON written straight into bytes, for the usage lists' hierarchy: a large organisation's entry
// holds millions of amounts, and making each as a string, joining them and encoding the result cost
// the emulator as much CPU as reading the answer costs a client, on the same machine in every test
// and benchmark. Amounts are written digit by digit from their integer millionths; the text is what
// `JSON.stringify(priced(a))` writes (tested against it).

const encoded = (text: string) => Buffer.from(text, "latin1");
const PRICE_TOTAL = encoded('"price":{"total":');
/**
 * Each member's key (with what comes before it) encoded once, and where its amount is, in two
 * arrays read by index: a list of pairs is destructured through the iterator protocol, at every
 * node of a list.
 */
const MEMBER_KEYS = [
  ...PRICE_COMPONENTS.map(([name]) => encoded(`,"${name}":`)),
  ...USAGE_QUANTITIES.map(([name], i) => encoded(`${i === 0 ? '},"usage":{' : ","}"${name}":`)),
];
const MEMBER_AMOUNTS = [...PRICE_COMPONENTS, ...USAGE_QUANTITIES].map(([, at]) => at);
const ZERO = 0x30;
/** "00" to "99": digits are written two at a time. */
const PAIRS = encoded(Array.from({ length: 100 }, (_, i) => String(i).padStart(2, "0")).join(""));
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, i) => 10 ** i);
/** A sign, 15 digits and a point. */
const MOST_DIGITS = 17;

export class JsonBytes {
  #buf = Buffer.allocUnsafe(64 * 1024);
  #at = 0;

  /**
   * What was written since the last take. Handed over rather than copied: the writer goes on in a
   * new buffer as large as this one (the pieces of a list are alike in size).
   */
  take(): Buffer {
    const out = this.#buf.subarray(0, this.#at);
    this.#buf = Buffer.allocUnsafe(this.#buf.length);
    this.#at = 0;
    return out;
  }

  /** Bytes written as they are: JSON text encoded once (ids, keys, punctuation). */
  bytes(bytes: Uint8Array): this {
    const length = bytes.length;
    this.#ensure(length);
    // Most are a few bytes (keys, ids), where a loop is faster than `set`; the buffer and the
    // position held in locals, or each byte reads both fields again.
    const buf = this.#buf;
    const at = this.#at;
    if (length > 64) buf.set(bytes, at);
    else for (let i = 0; i < length; i++) buf[at + i] = bytes[i] as number;
    this.#at = at + length;
    return this;
  }

  byte(byte: number): this {
    this.#ensure(1);
    this.#buf[this.#at++] = byte;
    return this;
  }

  /**
   * The `price` and `usage` members of `priced(a)` (without braces); of the amounts at `from` in a
   * larger array (`Sums` keeps every meter's in one), which saves making a view of each.
   */
  priced(a: Amounts, from = 0): this {
    this.bytes(PRICE_TOTAL).#scaled(Math.round(priceMicros(a, from) / 10_000), 2, 100);
    for (let i = 0; i < MEMBER_KEYS.length; i++)
      this.bytes(MEMBER_KEYS[i] as Uint8Array).#scaled(
        Math.round(a[from + (MEMBER_AMOUNTS[i] as number)] ?? 0),
        6,
        1_000_000,
      );
    return this.byte(0x7d);
  }

  /** `value / scale` for an integer `value`, as JSON writes it (up to 15 significant digits). */
  #scaled(value: number, places: number, scale: number): void {
    if (value === 0) {
      this.byte(ZERO);
      return;
    }
    if (value >= 1e15 || value <= -1e15) {
      this.bytes(encoded(JSON.stringify(value / scale)));
      return;
    }
    this.#ensure(MOST_DIGITS);
    if (value < 0) this.#buf[this.#at++] = 0x2d;
    const abs = Math.abs(value);
    const whole = Math.floor(abs / scale);
    let fraction = abs - whole * scale;
    this.#digits(whole, 0);
    if (fraction === 0) return;
    // Trailing zeros dropped, as JSON writes numbers; the fraction is below 2^31.
    let width = places;
    for (let tenth = (fraction / 10) | 0; tenth * 10 === fraction; tenth = (fraction / 10) | 0) {
      fraction = tenth;
      width -= 1;
    }
    this.#buf[this.#at++] = 0x2e;
    this.#digits(fraction, width);
  }

  /** A non-negative integer below 10^15, in at least `width` digits (leading zeros), room ensured. */
  #digits(n: number, width: number): void {
    let length = 1;
    while (length < 15 && n >= (POWERS_OF_TEN[length] as number)) length += 1;
    if (length < width) length = width;
    const buf = this.#buf;
    const start = this.#at;
    let at = start + length;
    let rest = n;
    // Above 2^31 in doubles until the rest fits 32-bit integer steps (nearly every amount's parts do).
    while (rest >= 2 ** 31) {
      const next = Math.floor(rest / 100);
      const pair = 2 * (rest - next * 100);
      buf[--at] = PAIRS[pair + 1] as number;
      buf[--at] = PAIRS[pair] as number;
      rest = next;
    }
    while (rest >= 100) {
      const next = (rest / 100) | 0;
      const pair = 2 * (rest - next * 100);
      buf[--at] = PAIRS[pair + 1] as number;
      buf[--at] = PAIRS[pair] as number;
      rest = next;
    }
    if (rest >= 10) {
      buf[--at] = PAIRS[2 * rest + 1] as number;
      buf[--at] = PAIRS[2 * rest] as number;
    } else buf[--at] = ZERO + rest;
    while (at > start) buf[--at] = ZERO;
    this.#at = start + length;
  }

  #ensure(more: number): void {
    if (this.#at + more <= this.#buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.#buf.length, this.#at + more));
    this.#buf.copy(grown, 0, 0, this.#at);
    this.#buf = grown;
  }
}
