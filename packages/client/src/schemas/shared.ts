import { z } from "zod";

// Shared rules of spec 2.1. Request schemas enforce them; response schemas only describe shapes.

export const ID_PATTERN = /^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$/;
export const REF_PATTERN = /^[A-Za-z0-9-]+$/;
/** Alphanumeric groups separated by a single hyphen or a single whitespace character. */
export const NAME_PATTERN = /^[a-zA-Z0-9]+([-\s][a-zA-Z0-9]+)*$/;
/** Letters, digits, whitespace and `. , ? \ / ' " ( ) [ ] ; ` % ^ & * - _ : !`. */
export const DESC_PATTERN = /^[\p{L}\p{N}\s.,?\\/'"()[\];`%^&*\-_:!]+$/u;
/**
 * Keys of secret variables, runtime environments and build arguments: letters, numbers, `_`, `-`,
 * `/` and `.`. The spec's prose leaves out `_`, but its own examples (`API_KEY`) and the live
 * platform take it (beyond-the-seed §5).
 */
export const VARIABLE_KEY_PATTERN = /^[A-Za-z0-9_./-]+$/;
export const UID_PATTERN = /^[0-9a-f]{24}$/;
export const SHA_PATTERN = /^[0-9a-fA-F]{40}$/;

export const id = () =>
  z
    .string()
    .min(3)
    .max(100)
    .regex(ID_PATTERN, "must match ID-PATTERN (letters and digits in groups joined by single hyphens)");
export const ref = () =>
  z.string().min(1).regex(REF_PATTERN, "must match REF-PATTERN (letters, digits and hyphens)");
export const name = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(
      NAME_PATTERN,
      "must match NAME-PATTERN (letters and digits in groups joined by a single hyphen or space)",
    );
/** Names of notifications, registries and pipelines: 3-39 characters, starting with a letter. */
export const shortName = () => name(3, 39).regex(/^[A-Za-z]/, "must start with a letter");
export const description = () =>
  z
    .string()
    .max(200)
    .regex(
      DESC_PATTERN,
      "must match DESC-PATTERN (letters, digits, spaces and . , ? \\ / ' \" ( ) [ ] ; ` % ^ & * - _ : !)",
    );
export const tag = () =>
  z.string().min(3).max(100).regex(ID_PATTERN, "a TAG is 3-100 characters matching ID-PATTERN");
export const uid = () => z.string().regex(UID_PATTERN, "must be a 24-character hexadecimal uid");
export const absolutePath = () => z.string().regex(/^\//, "must be an absolute path starting with /");
export const variableKey = () =>
  z.string().regex(VARIABLE_KEY_PATTERN, "keys contain only letters, numbers and _ - / .");
export const sha = () => z.string().regex(SHA_PATTERN, "must be a 40-character commit SHA");
export const pathParam = (what: string) => z.string().min(1, `${what} must not be empty`);

/** A file carried in a request: base64 (or other encoded) data and its encoding. */
export const encodedFile = () => z.strictObject({ data: z.string(), encoding: z.string() });
export const fileMap = () => z.record(absolutePath(), encodedFile());

/** Query of every cursor-paginated list (`per_page` at most 100). */
export const cursorListQuery = z.strictObject({
  per_page: z.number().int().min(1).max(100).optional(),
  page: z.number().int().min(1).optional(),
  cursor: z.string().min(1).optional(),
});
export type CursorListQuery = z.input<typeof cursorListQuery>;

// ---- Tolerant response helpers ----------------------------------------------------------------

/**
 * A string enum that accepts values the platform adds later; typed with the known values so
 * editors still suggest them.
 */
export const openEnum = <const T extends readonly string[]>(_known: T) =>
  z.string() as unknown as z.ZodType<T[number] | (string & {})>;

/** Response timestamps are mostly ISO strings, some Unix seconds: keep both (see parseTimestamp). */
export const timestamp = () => z.union([z.string(), z.number()]);

/**
 * A number the platform may write as numeric text (`"0.25"`): read as a number. Text that is no
 * number fails, naming the field.
 */
export const numeric = () =>
  z.union([
    z.number(),
    z
      .string()
      .regex(/^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/, "a number")
      .transform(Number),
  ]);

/**
 * A list's pagination. Only `hasNextPage` and `cursor` are read; a list answered without one is
 * its own last page.
 */
export const pagination = z.looseObject({
  hasNextPage: z.boolean().nullish(),
  cursor: z.string().nullish(),
  count: z.number().nullish(),
});
export type Pagination = z.infer<typeof pagination>;
/** What a list answered without pagination is: its own last page. */
export const LAST_PAGE: Pagination = { hasNextPage: false };

/**
 * `{ data: { [key]: T[] }, pagination }`, the shape of every cursor list. A list that leaves out
 * its array (or sends null) is empty, and one without `pagination` is its last page: neither is
 * a reason to refuse the answer.
 */
export const listEnvelope = <K extends string, T extends z.ZodType>(key: K, item: T) => {
  const items = z
    .array(item)
    .nullish()
    .transform((list) => list ?? []);
  return z.looseObject({
    data: z.looseObject({ [key]: items } as { [P in K]: typeof items }),
    pagination: pagination.nullish().transform((p) => p ?? LAST_PAGE),
  });
};

export const emptyData = z.looseObject({});

/** Any JSON object body, kept whole: for `client.request`. */
export const looseBody = z.looseObject({});
