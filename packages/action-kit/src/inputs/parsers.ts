import { REF_PATTERN } from "@cwp/client";
import { isMap, isScalar, parseDocument, parse as parseYaml } from "yaml";
import { z } from "zod";

// Schemas for raw input strings (the runner passes every input as text, "" when unset). Messages
// say what is allowed; they never repeat the value, which may be a secret.

const YAML_TRUE = ["true", "True", "TRUE"];
const YAML_FALSE = ["false", "False", "FALSE"];

/** Text, trimmed; `undefined` when empty. */
export const optionalText = () => z.string().transform((s) => s.trim() || undefined);

/** Text that must be given. */
export const requiredText = () =>
  z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().min(1, "is required"));

/** The id of a project, service, job or template: required, letters, digits and hyphens. */
const resourceId = () => z.string().regex(REF_PATTERN, "must be an id: letters, digits and hyphens");
export const resourceIdInput = () => requiredText().pipe(resourceId());
/** The same, when it may be left empty. */
export const optionalResourceIdInput = () => optionalText().pipe(resourceId().optional());

/** A YAML 1.2 boolean, as the runner's own boolean inputs; the default when empty. */
export const booleanInput = <F extends boolean | undefined>(fallback: F) =>
  z.string().transform((s, ctx): boolean | F => {
    const v = s.trim();
    if (v === "") return fallback;
    if (YAML_TRUE.includes(v)) return true;
    if (YAML_FALSE.includes(v)) return false;
    ctx.addIssue({
      code: "custom",
      message:
        fallback === undefined ? "must be true or false, or empty for the default" : "must be true or false",
    });
    return z.NEVER;
  });

const UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
/** The longest `timeout` (and any duration input) takes. */
export const MAX_DURATION_MS = 72 * 3_600_000;

/** A duration such as `90s`, `30m`, `2h` or `1h30m`, in milliseconds. */
export const durationInput = (fallback: string) =>
  z.string().transform((s, ctx) => {
    // `1h 30m` as the actions print durations, or `1h30m`.
    const v = (s.trim() || fallback).replace(/\s+/g, "");
    const parts = [...v.matchAll(/(\d+)(ms|s|m|h)/g)];
    const ms = parts.reduce((sum, [, n, unit]) => sum + Number(n) * (UNITS_MS[unit ?? "s"] ?? 0), 0);
    if (parts.map((p) => p[0]).join("") !== v || ms <= 0 || ms > MAX_DURATION_MS) {
      ctx.addIssue({
        code: "custom",
        message: "must be a duration such as 90s, 30m, 2h or 1h 30m (at most 72h)",
      });
      return z.NEVER;
    }
    return ms;
  });

/** A positive whole number, or the default when empty. */
export const integerInput = (fallback?: number, min = 1) =>
  z.string().transform((s, ctx) => {
    const v = s.trim();
    if (v === "") return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min) {
      ctx.addIssue({ code: "custom", message: `must be a whole number, ${min} or more` });
      return z.NEVER;
    }
    return Number(v);
  });

/** One of a list of words. */
export const choiceInput = <const T extends readonly [string, ...string[]]>(
  choices: T,
  fallback?: T[number],
) =>
  z.string().transform((s, ctx) => {
    const v = s.trim() || fallback;
    if (v === undefined) return undefined;
    if (!(choices as readonly string[]).includes(v)) {
      ctx.addIssue({ code: "custom", message: `must be one of ${choices.join(", ")}` });
      return z.NEVER;
    }
    return v as T[number];
  });

/** KEY=VALUE lines (blank lines and `#` comments skipped): the value is everything after the first `=`. */
function keyValueLines(text: string): Record<string, string> | string {
  // A Map, so that keys such as `toString` or `__proto__` are keys like any other.
  const out = new Map<string, string>();
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq <= 0) return `line ${i + 1} is not KEY=VALUE`;
    const key = line.slice(0, eq).trim();
    if (key === PROTO) return UNSENDABLE;
    if (out.has(key)) return `key ${key} is given twice`;
    out.set(key, line.slice(eq + 1));
  }
  return Object.fromEntries(out);
}

/** The one key a JavaScript object cannot carry as data: refused, rather than silently dropped. */
const PROTO = "__proto__";
const UNSENDABLE = "the key __proto__ cannot be sent";

/**
 * The first top-level key given twice in a JSON object, if any: `JSON.parse` keeps the last one
 * silently, where KEY=VALUE lines refuse a repeated key; one rule for both.
 */
function repeatedKey(text: string): string | undefined {
  const doc = parseDocument(text, { uniqueKeys: false });
  if (!isMap(doc.contents)) return undefined;
  const seen = new Set<string>();
  for (const { key } of doc.contents.items) {
    const name = String(isScalar(key) ? key.value : key);
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/**
 * How deep an object given as an input may nest. Deeper ones are refused when parsed: sending one
 * (`JSON.stringify`) or checking it would recurse past the stack and end the step with "Maximum
 * call stack size exceeded", far from the input that caused it.
 */
const MAX_INPUT_DEPTH = 64;

/** Whether `value` nests deeper than `MAX_INPUT_DEPTH`; walked without recursion, for the same reason. */
function tooDeep(value: unknown): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [node, depth] = entry;
    if (node === null || typeof node !== "object") continue;
    if (depth >= MAX_INPUT_DEPTH) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
const TOO_DEEP = `it nests deeper than ${MAX_INPUT_DEPTH} levels`;

function jsonObject(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "is not valid JSON";
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return "the JSON must be an object";
  if (tooDeep(value)) return TOO_DEEP;
  const twice = repeatedKey(text);
  if (twice !== undefined) return `key ${twice} is given twice`;
  if (Object.hasOwn(value, PROTO)) return UNSENDABLE;
  return value as Record<string, unknown>;
}

const NOT_AN_OBJECT = "must be a JSON or YAML object, or KEY=VALUE lines";

/** A YAML mapping, every scalar as the text it was written as (`1.10` is not `1.1`); or why not. */
function yamlObject(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = parseYaml(text, { schema: "failsafe" });
  } catch (error) {
    // The YAML parser recurses: a flow collection thousands deep overflows it.
    return String(error).includes("Maximum call stack size exceeded") ? TOO_DEEP : NOT_AN_OBJECT;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return NOT_AN_OBJECT;
  return tooDeep(value) ? TOO_DEEP : (value as Record<string, unknown>);
}

/**
 * Inputs whose value is lines, one KEY=VALUE (or YAML member) each: a terminal may give each line
 * as a flag of its own, the way `docker build --build-arg` is repeated.
 */
const lineInputs = new WeakSet<z.ZodType>();
const takingLines = <T extends z.ZodType>(schema: T): T => {
  lineInputs.add(schema);
  return schema;
};
export const takesLines = (schema: z.ZodType | undefined): boolean =>
  schema !== undefined && lineInputs.has(schema);

/** A string map from KEY=VALUE lines or a JSON object of strings; `undefined` when empty. */
const keyValueSchema = () =>
  z.string().transform((s, ctx) => {
    const v = s.trim();
    if (v === "") return undefined;
    const parsed = v.startsWith("{") ? jsonObject(v) : keyValueLines(v);
    if (typeof parsed === "string") {
      ctx.addIssue({ code: "custom", message: `${parsed}; give KEY=VALUE lines or a JSON object` });
      return z.NEVER;
    }
    const bad = Object.entries(parsed).find(([, value]) => typeof value !== "string");
    if (bad) {
      ctx.addIssue({ code: "custom", message: `the value of ${bad[0]} must be a string` });
      return z.NEVER;
    }
    return parsed as Record<string, string>;
  });

/**
 * An object from JSON, a YAML mapping, or KEY=VALUE lines; `{}` when empty. JSON keeps its types;
 * YAML and KEY=VALUE values are text, as written.
 */
const objectSchema = () =>
  z.string().transform((s, ctx) => {
    const v = s.trim();
    if (v === "") return {};
    if (v.startsWith("{")) {
      const parsed = jsonObject(v);
      if (typeof parsed !== "string") return parsed;
      ctx.addIssue({ code: "custom", message: `${parsed}; give a JSON or YAML object, or KEY=VALUE lines` });
      return z.NEVER;
    }
    if (
      v
        .split(/\r?\n/)
        .every((line) => line.trim() === "" || line.trim().startsWith("#") || /^[^=:\s]+=/.test(line.trim()))
    ) {
      const parsed = keyValueLines(v);
      if (typeof parsed !== "string") return parsed as Record<string, unknown>;
    }
    const parsed = yamlObject(v);
    if (typeof parsed !== "string") return parsed;
    ctx.addIssue({ code: "custom", message: parsed });
    return z.NEVER;
  });

export const keyValueInput = () => takingLines(keyValueSchema());
export const objectInput = () => takingLines(objectSchema());
