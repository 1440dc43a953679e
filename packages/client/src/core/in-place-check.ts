import type { z } from "zod";

// A schema's check that reads a value without copying it. Zod's parse builds a new object for every
// object it checks: on a large usage list (millions of small price and usage objects) that is a
// quarter of the time the client spends, and most of its garbage; requests (every list's query)
// need no copy either. Where a schema's parse can only return its input unchanged (tolerant
// objects, plain strings, numbers, booleans, arrays, enums, literals, unions and optionals of
// those), the same rules are checked in
// place and the input is the result; so are whole numbers, bounds and lengths, which requests carry.
// Any other schema (defaults, transforms, refinements, patterns and formats) has no such check; and
// an input that fails is parsed by the schema itself, so every error is zod's own.

type Check = (value: unknown) => boolean;
type Def = { type: string } & Record<string, unknown>;

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/** A def with exactly these members and no others (a member zod adds for a check or a transform declines). */
const only = (def: Def, ...members: string[]) =>
  Object.keys(def).every((key) => key === "type" || members.includes(key));

/** The members a check of a bound may have beside its own; `error` only words the message, which zod writes. */
const CHECK_MEMBERS = ["check", "abort", "error"];

/**
 * `type` (a string's or a number's own test) and the expression of each of its checks that has
 * one: whole numbers, bounds (requests carry page sizes and counts) and lengths. Any other check
 * (a pattern, a format, a refinement, a bound on something else) declines.
 */
function withChecks(def: Def, type: string, x: string): string | null {
  if (!only(def, "checks")) return null;
  const tests = [type];
  for (const check of (def.checks as unknown[] | undefined) ?? []) {
    const c = defOf(check) as Def & { check?: string };
    const bound = (member: string) => typeof c[member] === "number" && Number.isFinite(c[member]);
    const has = (...members: string[]) =>
      Object.keys(c).every((key) => CHECK_MEMBERS.includes(key) || members.includes(key));
    if (c.check === "number_format" && c.format === "safeint" && has("type", "format"))
      tests.push(`Number.isSafeInteger(${x})`);
    else if (c.check === "greater_than" && bound("value") && has("value", "inclusive"))
      tests.push(`${x} ${c.inclusive ? ">=" : ">"} ${c.value}`);
    else if (c.check === "less_than" && bound("value") && has("value", "inclusive"))
      tests.push(`${x} ${c.inclusive ? "<=" : "<"} ${c.value}`);
    // A length check applies `when` the value has a length, as every string has.
    else if (c.check === "min_length" && def.type === "string" && bound("minimum") && has("minimum", "when"))
      tests.push(`${x}.length >= ${c.minimum}`);
    else if (c.check === "max_length" && def.type === "string" && bound("maximum") && has("maximum", "when"))
      tests.push(`${x}.length <= ${c.maximum}`);
    else return null;
  }
  return `(${tests.join(" && ")})`;
}

const compiled = new WeakMap<object, Check | null>();

/** The in-place check of `schema`, or undefined when its parse may return something else than its input. */
export function inPlaceCheck(schema: z.ZodType): Check | undefined {
  return compile(schema) ?? undefined;
}

function compile(schema: unknown): Check | null {
  const known = compiled.get(schema as object);
  if (known !== undefined) return known;
  // A schema that refers to itself declines (null while it is being built).
  compiled.set(schema as object, null);
  const check = build(schema);
  compiled.set(schema as object, check);
  return check;
}

/**
 * Each object and array schema gets a function of its own, generated like zod's own fast path: one
 * function serving every shape would see all of them at each property read and be several times
 * slower. Strings, numbers and the like are tested inline; other schemas are called (`s[i]`).
 */
function build(schema: unknown): Check | null {
  const def = defOf(schema);
  const subs: Check[] = [];
  let body: string | null;
  switch (def.type) {
    case "object":
      body = objectBody(def, subs);
      break;
    case "array": {
      const element = only(def, "element") ? test(def.element, "x", subs) : null;
      body =
        element &&
        `if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) { const x = v[i]; if (!(${element})) return false; }
        return true;`;
      break;
    }
    case "union": {
      const options = only(def, "options")
        ? (def.options as unknown[]).map((o) => test(o, "v", subs))
        : [null];
      body = options.includes(null) ? null : `return ${options.map((o) => `(${o})`).join(" || ")};`;
      break;
    }
    case "enum":
    case "literal": {
      const values = only(def, "entries")
        ? new Set(Object.values(def.entries as object))
        : only(def, "values")
          ? new Set(def.values as unknown[])
          : null;
      return values && ((v) => values.has(v));
    }
    default: {
      const inline = test(schema, "v", subs);
      body = inline && `return ${inline};`;
    }
  }
  if (body === null) return null;
  try {
    return new Function("s", `"use strict"; return function check(v) { ${body} };`)(subs) as Check;
  } catch {
    // Code generation refused (node --disallow-code-generation-from-strings): zod parses instead.
    return null;
  }
}

/** A JavaScript expression true when `x` passes `schema`; null when the schema has no in-place check. */
function test(schema: unknown, x: string, subs: Check[]): string | null {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      return withChecks(def, `typeof ${x} === "string"`, x);
    case "number":
      return withChecks(def, `typeof ${x} === "number" && Number.isFinite(${x})`, x);
    case "boolean":
      return withChecks(def, `typeof ${x} === "boolean"`, x);
    case "null":
      return only(def) ? `${x} === null` : null;
    case "unknown":
    case "any":
      return only(def) ? "true" : null;
    case "optional":
    case "nullable": {
      const inner = only(def, "innerType") ? test(def.innerType, x, subs) : null;
      return inner && `(${x} === ${def.type === "optional" ? "undefined" : "null"} || ${inner})`;
    }
    case "object":
    case "array":
    case "union":
    case "enum":
    case "literal": {
      const check = compile(schema);
      if (!check) return null;
      subs.push(check);
      return `s[${subs.length - 1}](${x})`;
    }
    default:
      return null;
  }
}

/** Tolerant objects (unknown members kept as they are) and strict ones; `z.object` strips, so declines. */
function objectBody(def: Def, subs: Check[]): string | null {
  if (!only(def, "shape", "catchall") || def.catchall === undefined) return null;
  const rest = defOf(def.catchall).type;
  if (rest !== "unknown" && rest !== "never") return null;
  const lines = ['if (typeof v !== "object" || v === null || Array.isArray(v)) return false;'];
  const keys: string[] = [];
  for (const [key, schema] of Object.entries(def.shape as Record<string, unknown>)) {
    const member = test(schema, "x", subs);
    // Zod lets a member be absent only when its schema is optional in and out (`.optional()`);
    // `z.unknown()` and the like must still be present.
    const { optin, optout } = (schema as { _zod: { optin?: string; optout?: string } })._zod;
    if (member === null || (optin !== undefined && optout !== "optional")) return null;
    const k = JSON.stringify(key);
    keys.push(k);
    lines.push(
      `if (${k} in v) { const x = v[${k}]; if (!(${member})) return false; }${optin === undefined ? " else return false;" : ""}`,
    );
  }
  const unknown = keys.map((k) => `key !== ${k}`).join(" && ") || "true";
  if (rest === "never") lines.push(`for (const key of Object.keys(v)) if (${unknown}) return false;`);
  lines.push("return true;");
  return lines.join("\n");
}
