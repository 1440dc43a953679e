import { issuesToDetails } from "@cwp/client";
import type { z } from "zod";
import { ApiFailure } from "./http.js";

// Requests are checked with the client's own schemas, so the emulator refuses exactly what the
// spec refuses, with `details` naming each failing field.

export function checkBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success)
    throw new ApiFailure(400, "invalid request body", issuesToDetails(result.error.issues, "body"));
  return result.data;
}

export interface QueryTypes {
  /** Parameters the schema takes as numbers. */
  numbers?: readonly string[];
  booleans?: readonly string[];
  /** Parameters that may repeat (`metricTypes=cpu&metricTypes=memory`). */
  arrays?: readonly string[];
}

/** Query strings are text; the schemas speak numbers and booleans, so convert what looks right. */
export function checkQuery<S extends z.ZodType>(
  schema: S,
  query: URLSearchParams,
  types: QueryTypes = {},
): z.output<S> {
  const raw: Record<string, unknown> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    const one = values[values.length - 1] ?? "";
    if (types.arrays?.includes(key)) raw[key] = values;
    else if (types.numbers?.includes(key) && /^-?\d+(\.\d+)?$/.test(one)) raw[key] = Number(one);
    else if (types.booleans?.includes(key) && (one === "true" || one === "false")) raw[key] = one === "true";
    else raw[key] = one;
  }
  const result = schema.safeParse(raw);
  if (!result.success)
    throw new ApiFailure(400, "invalid query", issuesToDetails(result.error.issues, "query"));
  return result.data;
}

/** A path parameter checked against a schema (e.g. a subdomain). */
export function checkParam<S extends z.ZodType>(schema: S, value: unknown, name: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new ApiFailure(
      400,
      `invalid path parameter ${name}`,
      issuesToDetails(result.error.issues, `path.${name}`),
    );
  return result.data;
}
