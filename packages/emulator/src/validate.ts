import type { z } from "zod";
import { ApiFailure } from "./http.js";

// Requests are checked against the emulator's own reading of the spec (`rules/`), and refused
// with a 400 whose `details` map each failing field path to its messages (beyond-the-seed §2).

export function detailsOf(issues: readonly z.core.$ZodIssue[], part: string): Record<string, string[]> {
  const details: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = [part, ...issue.path.map(String)].join(".");
    const message =
      issue.code === "unrecognized_keys" ? `unknown field(s) ${issue.keys.join(", ")}` : issue.message;
    details[field] = [...(details[field] ?? []), message];
  }
  return details;
}

function check<S extends z.ZodType>(schema: S, value: unknown, part: string, message: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiFailure(400, message, detailsOf(result.error.issues, part));
  return result.data;
}

export const checkBody = <S extends z.ZodType>(schema: S, body: unknown): z.output<S> =>
  check(schema, body ?? {}, "body", "invalid request body");

/**
 * The query as the rules read it: each parameter's text, or every value of one that repeats
 * (`metricTypes=cpu&metricTypes=memory`).
 */
export function checkQuery<S extends z.ZodType>(schema: S, query: URLSearchParams): z.output<S> {
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    raw[key] = values.length === 1 ? (values[0] ?? "") : values;
  }
  return check(schema, raw, "query", "invalid query");
}

export const checkParam = <S extends z.ZodType>(schema: S, value: unknown, name: string): z.output<S> =>
  check(schema, value, `path.${name}`, `invalid path parameter ${name}`);
