import type { z } from "zod";
import { InputError, InputErrors } from "./input-error.js";

/**
 * An input's raw text by name ("" when not given), as the host reads it: the runner's
 * `INPUT_<NAME>` variables, or a command line's flags.
 */
export type RawInputs = (name: string) => string;

/**
 * Reads every input of a shape once and parses it into a typed config. All bad inputs are reported
 * together, each naming the input and what is allowed; nothing has been sent when this throws.
 */
export function readInputs<S extends z.ZodObject>(schema: S, read: RawInputs): z.output<S> {
  const raw = Object.fromEntries(Object.keys(schema.shape).map((name) => [name, read(name)]));
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const errors = result.error.issues.map(
    (issue) => new InputError(String(issue.path[0] ?? "(inputs)"), issue.message),
  );
  throw new InputErrors(errors);
}

/**
 * Checks a request built from inputs against the client's schema, naming the input a failing
 * field came from (`fields` maps a field path prefix to its input).
 */
export function checkRequest<S extends z.ZodType>(
  schema: S,
  value: unknown,
  fields: Record<string, string>,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    const prefix = Object.keys(fields)
      .filter((f) => path === f || path.startsWith(`${f}.`))
      .sort((a, b) => b.length - a.length)[0];
    const input = prefix ? (fields[prefix] as string) : path || "(inputs)";
    const rest = prefix && path.length > prefix.length ? ` (${path.slice(prefix.length + 1)})` : "";
    return new InputError(input, `${issue.message}${rest}`);
  });
  throw new InputErrors(errors);
}
