import type { RehearsalEvent } from "@cwp/workflow-rehearsal";
import { EVENT_SHAPES, type EventName, type EventShape } from "./event-payloads.js";
import { git } from "./git.js";

// The event a rehearsal runs for: its payload as GitHub sends it for the parts workflows read
// (`github.event.*`), for the commit and branch the clone is on, and a file's JSON laid over it
// for the rest (a pull request's number, `action: closed`, a fork's head).

export { EVENTS, type EventName } from "./event-payloads.js";

/** What git says of the folder `dir`, if it is in a clone and says something. */
const said = (dir: string, args: string[]) => git(dir, args) || undefined;

export interface Where {
  sha: string;
  /** The branch or tag, as a ref (`refs/heads/main`, `refs/tags/v1.2.0`). */
  ref: string;
  repository: string;
  /** The clone's folder (github.workspace), or the workflow's where it is in none. */
  workspace: string;
}

/**
 * The commit, branch and repository of the clone that holds `dir` (the workflow's folder, not the
 * one cwp was started in), each where git cannot tell standing in plainly; `ref` and `sha` as
 * asked. A ref that names a tag (`--ref v1.2.0`) is `refs/tags/...`.
 */
export function whereFromGit(
  dir: string,
  asked: { ref?: string | undefined; sha?: string | undefined } = {},
): Where {
  const origin = said(dir, ["remote", "get-url", "origin"]);
  const repository = origin ? /[/:]([^/:]+\/[^/]+?)(?:\.git)?$/.exec(origin)?.[1] : undefined;
  const branch = said(dir, ["symbolic-ref", "--short", "HEAD"]);
  const sha = asked.sha ?? said(dir, ["rev-parse", "HEAD"]) ?? "0".repeat(40);
  return {
    sha,
    ref: asked.ref !== undefined ? refOf(dir, asked.ref) : `refs/heads/${branch ?? "main"}`,
    repository: repository ?? "local/rehearsal",
    workspace: said(dir, ["rev-parse", "--show-toplevel"]) ?? dir,
  };
}

/** `--ref` as a full ref: a tag the clone has, or that reads as a version, is a tag; else a branch. */
function refOf(dir: string, ref: string): string {
  if (ref.startsWith("refs/")) return ref;
  if (said(dir, ["rev-parse", "--verify", "--quiet", `refs/tags/${ref}`])) return `refs/tags/${ref}`;
  if (said(dir, ["rev-parse", "--verify", "--quiet", `refs/heads/${ref}`])) return `refs/heads/${ref}`;
  return /^v?\d+(\.\d+)*([-+].*)?$/.test(ref) ? `refs/tags/${ref}` : `refs/heads/${ref}`;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** `over` laid on `base`, objects member by member. */
export function mergeJson(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over))
    out[key] = isObject(value) && isObject(out[key]) ? mergeJson(out[key] as Json, value) : value;
  return out;
}

export function eventFor(name: EventName, where: Where, inputs: Json, over: Json = {}): RehearsalEvent {
  const repository = {
    full_name: where.repository,
    name: where.repository.split("/")[1],
    default_branch: "main",
  };
  const facts = {
    sha: where.sha,
    ref: where.ref,
    name: where.ref.replace(/^refs\/(heads|tags)\//, ""),
    repository,
    sender: { login: "rehearsal" },
    inputs,
  };
  const shape: EventShape = EVENT_SHAPES[name];
  const base: Json = {
    ...(shape.action !== undefined ? { action: shape.action } : {}),
    ...shape.payload(facts),
    repository,
    sender: facts.sender,
  };
  const payload = mergeJson(base, over);
  const number = isObject(payload.pull_request) ? payload.pull_request.number : undefined;
  // A pull request event's `number` is its pull request's.
  if (number !== undefined && "number" in base) payload.number = number;
  return { name, payload, sha: where.sha, ref: shape.ref?.(facts, payload) ?? where.ref };
}
