// Exact decimal arithmetic for money and usage: amounts are BigInt millionths of millionths
// (12 decimal places), so adding unrounded platform values never meets a float.

const SCALE = 12;
const ONE = 10n ** BigInt(SCALE);
const UNITS_PER_MILLIONTH = 10n ** BigInt(SCALE - 6);

export class Decimal {
  private constructor(readonly units: bigint) {}

  static readonly zero = new Decimal(0n);

  /**
   * From a JSON number or decimal text. A JSON number is read back through its shortest decimal
   * text, which is the text the platform sent for any amount of up to 15 significant digits.
   */
  static from(value: number | string): Decimal {
    // An amount of up to six decimals (what the platform sends): its shortest text is its exact
    // count of millionths, so that count is the value, without reading any text.
    const micros = typeof value === "number" ? exactMillionths(value) : undefined;
    if (micros !== undefined) return new Decimal(BigInt(micros) * UNITS_PER_MILLIONTH);
    const text = typeof value === "number" ? numberText(value) : value.trim();
    const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
    if (!match || (match[2] === "" && (match[3] ?? "") === "")) throw new Error(`not a decimal: ${text}`);
    const [, sign, whole = "", fraction = "", exponent = "0"] = match;
    const digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, "") || "0";
    const shift = SCALE - fraction.length + Number(exponent);
    let units =
      shift >= 0 ? BigInt(digits) * 10n ** BigInt(shift) : roundDiv(BigInt(digits), 10n ** BigInt(-shift));
    if (sign === "-") units = -units;
    return new Decimal(units);
  }

  plus(other: Decimal): Decimal {
    return new Decimal(this.units + other.units);
  }

  minus(other: Decimal): Decimal {
    return new Decimal(this.units - other.units);
  }

  isZero(): boolean {
    return this.units === 0n;
  }

  isNegative(): boolean {
    return this.units < 0n;
  }

  compare(other: Decimal): number {
    return this.units < other.units ? -1 : this.units > other.units ? 1 : 0;
  }

  /** Rounded half away from zero to `places` decimals, as the platform rounds its totals. */
  round(places: number): Decimal {
    const step = 10n ** BigInt(SCALE - places);
    return new Decimal(roundDiv(this.units, step) * step);
  }

  /** `this / other × 100`, rounded to `places`; undefined when dividing by zero. */
  percentOf(other: Decimal, places = 1): Decimal | undefined {
    if (other.units === 0n) return undefined;
    return new Decimal(roundDiv(this.units * 100n * ONE, other.units)).round(places);
  }

  /** Decimal text with exactly `places` decimals (or as many as needed when undefined). */
  toFixed(places?: number): string {
    const value = places === undefined ? this : this.round(places);
    const negative = value.units < 0n;
    const abs = negative ? -value.units : value.units;
    const whole = abs / ONE;
    let fraction = (abs % ONE).toString().padStart(SCALE, "0");
    fraction = places === undefined ? fraction.replace(/0+$/, "") : fraction.slice(0, places);
    return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
  }

  toString(): string {
    return this.toFixed();
  }

  static sum(values: Iterable<Decimal>): Decimal {
    let units = 0n;
    for (const v of values) units += v.units;
    return new Decimal(units);
  }
}

/**
 * `Decimal.from(value).toFixed()` of a JSON number, without the arithmetic where the number's own
 * text already is that (a plain decimal of at most 12 places). The amounts of FOCUS rows, up to six
 * decimals, are written digit by digit by `LineFile.decimal`; this is the text of any other.
 */
export function decimalText(value: number): string {
  const text = numberText(value);
  // A double's own text has no exponent from 1e-6 to 1e21: then it is plain decimal text.
  const dot = text.indexOf(".");
  return !text.includes("e") && (dot < 0 || text.length - dot - 1 <= 12)
    ? text
    : Decimal.from(value).toFixed();
}

/** A JSON number of at most six decimals (below 10^9) as its integer count of millionths. */
export function exactMillionths(value: number): number | undefined {
  const micros = Math.round(value * 1e6);
  return micros / 1e6 === value && Math.abs(micros) < 1e15 ? micros : undefined;
}

/** Integer division rounding half away from zero. */
function roundDiv(n: bigint, d: bigint): bigint {
  const negative = n < 0n !== d < 0n;
  const a = n < 0n ? -n : n;
  const b = d < 0n ? -d : d;
  const q = (a + b / 2n) / b;
  return negative ? -q : q;
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite amount: ${value}`);
  return String(value);
}

/** A number for people: thousands separated, `places` decimals, never a negative zero. */
export function formatNumber(value: Decimal, places = 2): string {
  const rounded = value.round(places);
  const [whole = "0", fraction] = rounded.toFixed(places).replace("-", "").split(".");
  const digits = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${rounded.isNegative() ? "-" : ""}${digits}${fraction === undefined ? "" : `.${fraction}`}`;
}

/** A change for people: `+` before a rise, `-` before a fall, neither when it rounds to zero. */
export function formatSigned(value: Decimal, places = 2): string {
  const rounded = value.round(places);
  return `${rounded.isNegative() || rounded.isZero() ? "" : "+"}${formatNumber(rounded, places)}`;
}

/** Money for people, with the currency code. */
export const formatMoney = (amount: Decimal, currency: string) => `${formatNumber(amount)} ${currency}`;
