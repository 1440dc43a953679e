import { z } from "zod";

// The emulator's own reading of the spec's shared rules (platform-api.md 2.1 and 8), written from
// the spec, never taken from the client: where the two read a rule differently, the cross-check
// test in client-e2e names the rule.

/** 2.1 ID-PATTERN. */
export const ID = /^[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*$/;
/** 2.1 REF-PATTERN. */
export const REF = /^[A-Za-z0-9-]+$/;
/** 2.1 NAME-PATTERN: alphanumeric groups separated by a single hyphen or a single whitespace. */
export const NAME = /^[A-Za-z0-9]+(?:[-\s][A-Za-z0-9]+)*$/;
/** 2.1 DESC-PATTERN: letters, digits, whitespace and . , ? \ / ' " ( ) [ ] ; ` % ^ & * - _ : ! */
export const DESC = /^[\p{L}\p{N}\s.,?\\/'"()[\];`%^&*\-_:!]+$/u;
/**
 * Keys of secret variables, runtime environments and build arguments. The prose lists letters,
 * numbers, hyphens, forward slashes and dots; the platform's own examples (`VARIABLE_1`,
 * `API_KEY`) and the live platform take underscores too (beyond-the-seed §5).
 */
export const VARIABLE_KEY = /^[A-Za-z0-9_./-]+$/;
/** A uid (spec 1.6), as billing filters take it: 24 hexadecimal characters. */
export const UID = /^[0-9a-f]{24}$/;
/** 8: a build `sha` is exactly 40 characters (a commit SHA). */
export const COMMIT_SHA = /^[0-9a-fA-F]{40}$/;

export const idField = () => z.string().min(3).max(100).regex(ID, "must match ID-PATTERN");
export const refField = () => z.string().regex(REF, "must match REF-PATTERN");
export const nameField = (min: number, max: number) =>
  z.string().min(min).max(max).regex(NAME, "must match NAME-PATTERN");
/** Notification, registry and pipeline names: 3-39 characters, starting with a letter. */
export const shortNameField = () => nameField(3, 39).regex(/^[A-Za-z]/, "must start with a letter");
export const descField = () => z.string().max(200).regex(DESC, "must match DESC-PATTERN");
export const tagField = () => z.string().min(3).max(100).regex(ID, "a TAG matches ID-PATTERN");
export const absolutePathField = () => z.string().regex(/^\//, "must be an absolute path");
export const variablesField = () =>
  z.record(z.string().regex(VARIABLE_KEY, "keys are letters, digits, _ - / and . only"), z.string());
export const encodedFileField = () => z.strictObject({ data: z.string(), encoding: z.string() });
export const filesField = () => z.record(absolutePathField(), encodedFileField());

// Query parameters arrive as text; these read them as the spec types them.

/** An integer parameter within [min, max]. */
export const intParam = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^-?\d+$/, "must be an integer")
    .transform(Number)
    .pipe(z.number().min(min).max(max));
export const boolParam = () =>
  z.enum(["true", "false"], { error: "must be true or false" }).transform((v) => v === "true");
export const textParam = () => z.string().min(1);

/** 2.1 and 8: cursor lists (`per_page` at most 100). */
export const cursorList = {
  per_page: intParam(1, 100).optional(),
  page: intParam(1).optional(),
  cursor: textParam().optional(),
};
export const cursorListQuery = z.strictObject(cursorList);
