import { z } from "zod";

// A fault's `rewrite`: the real answer, acted on and then changed before it is sent, to try a
// client against what a live platform may answer that this emulator does not (a field left out,
// a null, a status the spec does not list, a number as text). Paths are dot-separated member
// names; `*` stands for every item of an array or member of an object.

export const rewriteSchema = z.strictObject({
  /** Members to leave out: `data.gitops`, `data.templateRuns.*.gitops`. */
  omit: z.array(z.string().min(1)).optional(),
  /** Members to set (made where missing, in objects that exist): `{"data.status": "PAUSED"}`. */
  set: z.record(z.string().min(1), z.unknown()).optional(),
  /** Headers of the answer to set (a `date` from another day, say). */
  headers: z
    .record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/), z.string().regex(/^[\t\x20-\x7e]*$/))
    .optional(),
});
export type Rewrite = z.infer<typeof rewriteSchema>;

type Json = unknown;

/** Every object `path` (all but its last member) leads to in `value`, with that last member's name. */
function targets(value: Json, path: string): Array<{ parent: Record<string, Json>; key: string }> {
  const names = path.split(".");
  const last = names.pop() as string;
  let level: Json[] = [value];
  for (const name of names) {
    level = level.flatMap((node) => {
      if (node === null || typeof node !== "object") return [];
      const record = node as Record<string, Json>;
      if (name === "*") return Object.values(record);
      return Object.hasOwn(record, name) ? [record[name]] : [];
    });
  }
  return level.flatMap((node) => {
    if (node === null || typeof node !== "object") return [];
    const record = node as Record<string, Json>;
    const keys = last === "*" ? Object.keys(record) : [last];
    return keys.map((key) => ({ parent: record, key }));
  });
}

/** The answer's JSON text, rewritten; text that is no JSON is sent as it is. */
export function rewriteAnswer(text: string, rewrite: Rewrite): string {
  let value: Json;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  for (const path of rewrite.omit ?? [])
    for (const { parent, key } of targets(value, path)) {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
    }
  for (const [path, replacement] of Object.entries(rewrite.set ?? {}))
    for (const { parent, key } of targets(value, path)) parent[key] = structuredClone(replacement);
  return JSON.stringify(value);
}
