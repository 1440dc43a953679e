import type { z } from "zod";
import { RequestValidationError, UnexpectedResponseError } from "../transport/errors.js";
import { inPlaceCheck } from "./in-place-check.js";

/** Zod issues as the platform writes validation details: field path to a list of messages. */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[], prefix = ""): Record<string, string[]> {
  const details: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || "(body)";
    let message = issue.message;
    if (issue.code === "unrecognized_keys") message = `unknown field(s) ${issue.keys.join(", ")}`;
    details[field] = [...(details[field] ?? []), message];
  }
  return details;
}

function describe(details: Record<string, string[]>): string {
  return Object.entries(details)
    .map(([field, messages]) => `${field}: ${messages.join(", ")}`)
    .join("; ");
}

/**
 * Checks a request part (`body`, `query` or a path parameter) before anything is sent; a failure
 * names every field and leaves the process without a request. A part that passes in place is sent
 * as it is: the transport serializes it once, when the request is made, so a caller changing it
 * afterwards changes no attempt.
 */
export function validateRequest<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: { method: string; path: string; part: string },
): z.output<S> {
  if (inPlaceCheck(schema)?.(value)) return value as z.output<S>;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = issuesToDetails(result.error.issues, where.part);
  throw new RequestValidationError(
    `Invalid request ${where.method} ${where.path}, nothing was sent: ${describe(details)}`,
    {
      method: where.method,
      path: where.path,
      details,
    },
  );
}

/**
 * Removes every member whose value is null from the objects of a JSON value, in place; true when
 * it removed any. A platform that writes `null` for a member it has no value for means it is
 * absent: read so, a null never makes an answer invalid where leaving the member out would not.
 */
function dropNulls(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  let dropped = false;
  if (Array.isArray(value)) {
    for (const item of value) dropped = dropNulls(item) || dropped;
    return dropped;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (record[key] === null) {
      delete record[key];
      dropped = true;
    } else dropped = dropNulls(record[key]) || dropped;
  }
  return dropped;
}

/**
 * Parses a response tolerantly (unknown fields and values kept); a missing required field fails.
 * An answer that fails is read once more with its nulls as absent members (see `dropNulls`): only
 * then, so that an answer without nulls costs nothing more.
 */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: { method: string; path: string; status: number; field?: string },
): z.output<S> {
  if (inPlaceCheck(schema)?.(value)) return value as z.output<S>;
  let result = schema.safeParse(value);
  if (!result.success && dropNulls(value)) result = schema.safeParse(value);
  if (result.success) return result.data;
  const { field, ...at } = where;
  const details = issuesToDetails(result.error.issues, field);
  throw new UnexpectedResponseError(
    `${where.method} ${where.path} answered ${where.status} with a body that does not match the API: ${describe(details)}`,
    { ...at, details },
  );
}

/** JSON text of a response (or of one element of it, read as it arrived), parsed. */
export function parseJsonText(
  text: string,
  where: { method: string; path: string; status: number; field?: string },
): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UnexpectedResponseError(
      `${where.method} ${where.path} answered ${where.status} with a body that is not JSON${where.field ? ` (at ${where.field})` : ""}`,
      { method: where.method, path: where.path, status: where.status },
    );
  }
}
