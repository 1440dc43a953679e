import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { inPlaceCheck } from "../src/core/in-place-check.js";
import * as schemas from "../src/schemas/index.js";

// The in-place check must say yes exactly where zod's parse succeeds, and only for schemas whose
// parse returns its input unchanged. Tried on every schema the client exports, with values made
// from each schema and then broken in every way a platform could (a member missing, of another
// type, unknown, an unknown enum value).

type Def = { type: string } & Record<string, unknown>;
const defOf = (schema: unknown) => (schema as { _zod: { def: Def } })._zod.def;

/** A small deterministic random source: the same values on every run. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/** A value the schema accepts (for the kinds an in-place check covers). */
function sampleOf(schema: unknown, next: () => number, depth = 0): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
    case "number": {
      // One the schema's checks (lengths, bounds, whole numbers) accept, where one of these is.
      const candidates =
        def.type === "string"
          ? [`s${Math.floor(next() * 100)}`, "s", ""]
          : [Math.floor(next() * 10_000) / 100, Math.floor(next() * 100) + 1, 1, 0.5, 0];
      return candidates.find((c) => (schema as z.ZodType).safeParse(c).success) ?? candidates[0];
    }
    case "boolean":
      return next() < 0.5;
    case "null":
      return null;
    case "unknown":
    case "any":
      return { any: 1 };
    case "optional":
      return next() < 0.3 ? undefined : sampleOf(def.innerType, next, depth);
    case "nullable":
      return next() < 0.3 ? null : sampleOf(def.innerType, next, depth);
    case "array":
      return Array.from({ length: depth > 4 ? 0 : Math.floor(next() * 3) }, () =>
        sampleOf(def.element, next, depth + 1),
      );
    case "enum":
      return Object.values(def.entries as object)[0];
    case "literal":
      return (def.values as unknown[])[0];
    case "union": {
      const options = def.options as unknown[];
      return sampleOf(options[Math.floor(next() * options.length)], next, depth);
    }
    case "object": {
      const value: Record<string, unknown> = {};
      for (const [key, member] of Object.entries(def.shape as object)) {
        const v = sampleOf(member, next, depth + 1);
        if (v !== undefined) value[key] = v;
      }
      return value;
    }
    default:
      throw new Error(`no value for ${def.type}`);
  }
}

/** Every object in a value, with the path to it. */
function objectsIn(value: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const v of value) objectsIn(v, found);
  else if (typeof value === "object" && value !== null) {
    found.push(value as Record<string, unknown>);
    for (const v of Object.values(value)) objectsIn(v, found);
  }
  return found;
}

const breakages: ((o: Record<string, unknown>, key: string) => void)[] = [
  (o, key) => delete o[key],
  (o, key) => (o[key] = 42),
  (o, key) => (o[key] = "text"),
  (o, key) => (o[key] = null),
  (o, key) => (o[key] = [1]),
  (o, key) => (o[key] = { nested: true }),
  // At and past the bounds and lengths a request's members have.
  (o, key) => (o[key] = 0),
  (o, key) => (o[key] = 1),
  (o, key) => (o[key] = -1),
  (o, key) => (o[key] = 1.5),
  (o, key) => (o[key] = 100),
  (o, key) => (o[key] = 101),
  (o, key) => (o[key] = 2 ** 53),
  (o, key) => (o[key] = Number.POSITIVE_INFINITY),
  (o, key) => (o[key] = ""),
  (o, key) => (o[key] = "x"),
  (o, key) => (o[key] = "x".repeat(63)),
  (o, key) => (o[key] = "x".repeat(64)),
  (o, key) => (o[key] = "x".repeat(300)),
  (o) => (o.addedByThePlatform = { x: 1 }),
];

const exported = [
  ...Object.entries(schemas).filter(
    ([, value]) => typeof value === "object" && value !== null && "_zod" in value,
  ),
  ["a strict object", z.strictObject({ a: z.string(), b: z.number().nullable().optional() })],
  ["an empty strict object", z.strictObject({})],
  ["a literal or null", z.union([z.literal("on"), z.null()])],
  [
    "a strict object with bounds and lengths",
    z.strictObject({
      page: z.number().int().min(1).max(100).optional(),
      share: z.number().positive().lt(100),
      name: z.string().min(1).max(63),
      note: z.string().max(3).optional(),
    }),
  ],
] as [string, z.ZodType][];

describe("inPlaceCheck", () => {
  it("covers the usage list's schemas (else a large report would copy every object again)", () => {
    const { paasTeam, usageEntry, price, usageQuantities } = schemas;
    for (const schema of [paasTeam, usageEntry, price, usageQuantities])
      expect(inPlaceCheck(schema)).toBeDefined();
  });

  it("covers the request schemas of lists (else every list's query would be copied by zod)", () => {
    expect(inPlaceCheck(schemas.cursorListQuery)).toBeDefined();
  });

  it("leaves the checking to zod where Node refuses to generate code", () => {
    const node = process.execPath;
    const script = `import { inPlaceCheck } from ${JSON.stringify(new URL("../src/core/in-place-check.ts", import.meta.url).href)};
      import { z } from "zod";
      console.log(String(inPlaceCheck(z.looseObject({ a: z.string() }))));`;
    const out = execFileSync(
      node,
      ["--disallow-code-generation-from-strings", "--input-type=module", "-e", script],
      {
        encoding: "utf8",
        cwd: fileURLToPath(new URL("..", import.meta.url)),
      },
    );
    expect(out.trim()).toBe("undefined");
  });

  it("declines schemas whose parse may change its input", () => {
    expect(inPlaceCheck(z.object({ a: z.string() }))).toBeUndefined(); // strips unknown members
    expect(inPlaceCheck(z.string().regex(/^a/))).toBeUndefined(); // a pattern: left to zod
    expect(inPlaceCheck(z.string().email())).toBeUndefined();
    expect(inPlaceCheck(z.number().multipleOf(5))).toBeUndefined();
    expect(inPlaceCheck(z.string().default("x"))).toBeUndefined();
    expect(inPlaceCheck(z.looseObject({ a: z.string().transform((s) => s.length) }))).toBeUndefined();
    expect(inPlaceCheck(z.looseObject({ a: z.string() }).refine(() => false))).toBeUndefined();
  });

  it.each(exported)("agrees with zod on %s", (_name, schema) => {
    const check = inPlaceCheck(schema);
    if (!check) return;
    const next = random(7);
    let tried = 0;
    for (let sample = 0; sample < 20; sample++) {
      const valid = sampleOf(schema, next);
      const cases: unknown[] = [valid, "text", 42, null, []];
      const paths = objectsIn(valid).length;
      for (let at = 0; at < paths; at++)
        for (const [b, breakIt] of breakages.entries()) {
          const broken = structuredClone(valid);
          const target = objectsIn(broken)[at] as Record<string, unknown>;
          const keys = Object.keys(target);
          if (keys.length === 0 && b < breakages.length - 1) continue;
          breakIt(target, keys[Math.floor(next() * keys.length)] as string);
          cases.push(broken);
        }
      for (const value of cases) {
        const result = schema.safeParse(value);
        expect(check(value), JSON.stringify(value)).toBe(result.success);
        if (result.success) expect(isDeepStrictEqual(result.data, value)).toBe(true);
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(0);
  });
});
