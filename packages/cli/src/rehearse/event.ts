import { execFileSync } from "node:child_process";
import type { RehearsalEvent } from "@cwp/workflow-rehearsal";

// The event a rehearsal runs for: its payload as GitHub sends it for the parts workflows read
// (`github.event.*`), for the commit and branch the clone is on, and a file's JSON laid over it
// for the rest (a pull request's number, `action: closed`, a fork's head).

export const EVENTS = ["push", "pull_request", "workflow_dispatch", "schedule"] as const;
export type EventName = (typeof EVENTS)[number];

/** What git says of the folder, if it is a clone: the commit, the branch, and origin's owner/name. */
function git(args: string[]): string | undefined {
  try {
    return (
      execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

export interface Where {
  sha: string;
  /** The branch, as a ref (`refs/heads/main`). */
  ref: string;
  repository: string;
}

/** The clone's commit, branch and repository, each where git cannot tell standing in plainly. */
export function whereFromGit(): Where {
  const origin = git(["remote", "get-url", "origin"]);
  const repository = origin ? /[/:]([^/:]+\/[^/]+?)(?:\.git)?$/.exec(origin)?.[1] : undefined;
  const branch = git(["symbolic-ref", "--short", "HEAD"]);
  return {
    sha: git(["rev-parse", "HEAD"]) ?? "0".repeat(40),
    ref: `refs/heads/${branch ?? "main"}`,
    repository: repository ?? "local/rehearsal",
  };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** `over` laid on `base`, objects member by member. */
function merge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over))
    out[key] = isObject(value) && isObject(out[key]) ? merge(out[key] as Json, value) : value;
  return out;
}

export function eventFor(name: EventName, where: Where, inputs: Json, over: Json = {}): RehearsalEvent {
  const repository = { full_name: where.repository };
  const branch = where.ref.replace(/^refs\/heads\//, "");
  const base: Record<EventName, Json> = {
    push: { ref: where.ref, after: where.sha, head_commit: { id: where.sha }, repository },
    pull_request: {
      action: "opened",
      number: 1,
      pull_request: {
        number: 1,
        head: { sha: where.sha, ref: branch, repo: repository },
        base: { ref: "main", repo: repository },
      },
      repository,
    },
    workflow_dispatch: { ref: where.ref, inputs, repository },
    schedule: { repository },
  };
  const payload = merge(base[name], over);
  const number = isObject(payload.pull_request) ? payload.pull_request.number : undefined;
  return {
    name,
    payload,
    sha: where.sha,
    // A pull request's run is on its merge ref, as GitHub's is.
    ref: name === "pull_request" ? `refs/pull/${String(number)}/merge` : where.ref,
  };
}
