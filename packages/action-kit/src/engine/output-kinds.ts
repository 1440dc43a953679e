import { ID_PATTERN } from "@cwp/client";

// What each step output carries. An output is read by later steps, often as a shell word
// (`${{ steps.build.outputs.image }}` inside `run:`), so one that carries platform text is set only
// when the text has the shape of its kind: a registry URI holding `$(...)` is never an output.

export interface OutputKind {
  /** Written at the start, so a step that fails early still has every output. */
  default: string;
  /** How a terminal's JSON types it; an empty number is `null` there. */
  type: "boolean" | "number" | "string";
  /** For platform text: the shape it must have, and what that is called in a warning. */
  shape?: { pattern: RegExp; is: string };
}

const text = (pattern: RegExp, is: string, type: OutputKind["type"] = "string"): OutputKind => ({
  default: "",
  type,
  shape: { pattern, is },
});

/**
 * An image reference: a registry host (with an optional port), a path, and a tag and/or a digest,
 * as Docker's reference grammar has them.
 */
const IMAGE =
  /^[A-Za-z0-9.-]+(:\d+)?(\/[a-z0-9]+([._-]+[a-z0-9]+)*)+(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@sha256:[a-f0-9]{64})?$/;
/**
 * A branch name as git allows it, less the characters a shell or a template would act on
 * (spaces, quotes, `$`, `` ` ``, `;`, `&`, `|`, `<`, `>`, parentheses and braces) and never `..`.
 */
const BRANCH = /^(?!.*\.\.)(?![-./])[A-Za-z0-9._/@#+=,%-]{1,255}$/;

export const OUTPUT = {
  /** `true` or `false`. */
  flag: { default: "false", type: "boolean" },
  /** A count this step made. */
  count: { default: "0", type: "number" },
  /** A path or other text this step made itself. */
  ours: { default: "", type: "string" },
  id: text(ID_PATTERN, "an id (letters and digits in groups joined by hyphens)"),
  status: text(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, "a status (one word)"),
  image: text(IMAGE, "an image reference (host/path:tag or @sha256:digest)"),
  sha: text(/^[0-9a-f]{7,64}$/, "a commit sha"),
  branch: text(BRANCH, "a branch name"),
  version: text(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/, "a version"),
  time: text(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/, "a timestamp"),
  /** A decimal number, empty (JSON `null`) when there is none, such as a change without a comparison. */
  number: text(/^-?\d+(\.\d+)?$/, "a number", "number"),
  currency: text(/^[A-Z]{3}$/, "a currency code (three capital letters)"),
} as const satisfies Record<string, OutputKind>;
