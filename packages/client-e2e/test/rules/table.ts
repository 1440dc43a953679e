import type { z } from "zod";

// The cross-check's table: for each request rule of the spec, values just inside and just outside
// it, each with the verdict the spec gives. Generated from a few rule shapes (length, pattern,
// range, enum, required, one-of) so every row is a named rule, not a random input.

export type Verdict = "accept" | "refuse";
/**
 * What the client's schema and the platform each do with a row. Most rules are the same on both
 * sides; a rule only the platform can apply (it depends on a resource, such as a service's kind)
 * is `accept` for the client and `refuse` for the platform.
 */
export type Expected = Verdict | { client: Verdict; platform: Verdict };

/** One operation whose request the rules constrain, and a request that passes every rule. */
export interface Operation {
  name: string;
  method: "GET" | "POST";
  /** The spec path, with the emulator's fixture ids filled in; `{param}` for a `path` part. */
  path: string;
  /** Which part the rules apply to; a `path` part's value is `{ param: value }`. */
  part: "body" | "query" | "path";
  /** The client's schema for this part. */
  schema: z.ZodType;
  valid: Record<string, unknown>;
}

export interface Row {
  rule: string;
  op: Operation;
  /** The whole request part this row sends, typed as the client takes it. */
  value: Record<string, unknown>;
  expected: Expected;
}

/** A copy of `base` with the dotted `field` set to `value` (`undefined` removes it). */
export function withField(
  base: Record<string, unknown>,
  field: string,
  value: unknown,
): Record<string, unknown> {
  const copy = structuredClone(base);
  const keys = field.split(".");
  let at: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) {
    at[key] = typeof at[key] === "object" && at[key] !== null ? at[key] : {};
    at = at[key] as Record<string, unknown>;
  }
  const last = keys.at(-1) ?? "";
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

/** Rows of one operation, built from the rule shapes. */
export class Rules {
  readonly rows: Row[] = [];
  constructor(readonly op: Operation) {}

  #row(rule: string, field: string, value: unknown, expected: Verdict, base = this.op.valid) {
    this.rows.push({
      rule: `${this.op.name}: ${rule}`,
      op: this.op,
      value: withField(base, field, value),
      expected,
    });
    return this;
  }

  /** A whole request part, for rules that tie fields together. */
  case(rule: string, value: Record<string, unknown>, expected: Expected) {
    this.rows.push({ rule: `${this.op.name}: ${rule}`, op: this.op, value, expected });
    return this;
  }

  /** Lengths min-1 and max+1 refused, min and max taken; `make(n)` builds a valid value of length n. */
  length(
    field: string,
    min: number,
    max: number | undefined,
    make: (n: number) => unknown,
    base?: Record<string, unknown>,
  ) {
    const rule = `${field} length ${min}-${max ?? "∞"}`;
    if (min > 0) this.#row(rule, field, make(min - 1), "refuse", base);
    this.#row(rule, field, make(min), "accept", base);
    if (max !== undefined) {
      this.#row(rule, field, make(max), "accept", base);
      this.#row(rule, field, make(max + 1), "refuse", base);
    }
    return this;
  }

  pattern(
    field: string,
    name: string,
    inside: unknown[],
    outside: unknown[],
    base?: Record<string, unknown>,
  ) {
    for (const v of inside) this.#row(`${field} ${name} ${JSON.stringify(v)}`, field, v, "accept", base);
    for (const v of outside) this.#row(`${field} ${name} ${JSON.stringify(v)}`, field, v, "refuse", base);
    return this;
  }

  /** Integers min-1 and max+1 refused, min and max taken, a fraction refused. */
  range(field: string, min: number | undefined, max: number | undefined, base?: Record<string, unknown>) {
    const rule = `${field} integer ${min ?? "-∞"}..${max ?? "∞"}`;
    if (min !== undefined) {
      this.#row(rule, field, min - 1, "refuse", base);
      this.#row(rule, field, min, "accept", base);
    }
    if (max !== undefined) {
      this.#row(rule, field, max, "accept", base);
      this.#row(rule, field, max + 1, "refuse", base);
    }
    this.#row(rule, field, (min ?? max ?? 0) + 1.5, "refuse", base);
    return this;
  }

  enumOf(field: string, values: readonly unknown[], outside: unknown, base?: Record<string, unknown>) {
    for (const v of values) this.#row(`${field} one of ${values.join("|")}`, field, v, "accept", base);
    this.#row(`${field} one of ${values.join("|")}`, field, outside, "refuse", base);
    return this;
  }

  required(field: string, base?: Record<string, unknown>) {
    this.#row(`${field} required`, field, undefined, "refuse", base);
    return this;
  }

  /** Unknown members are refused (requests are strict). */
  strict(field = "unknownField") {
    this.#row("no unknown fields", field, "x", "refuse");
    return this;
  }
}

export const chars = (n: number, c = "a") => c.repeat(Math.max(0, n));
/** A NAME-PATTERN / ID-PATTERN value of exactly n characters (groups joined by hyphens). */
export const idOf = (n: number) => (n <= 0 ? "" : `a${"b".repeat(Math.max(0, n - 1))}`);
export const sha40 = "0123456789abcdef0123456789abcdef01234567";
