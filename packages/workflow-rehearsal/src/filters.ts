import type { EventsConfig } from "@actions/workflow-parser/model/workflow-template";

// Whether a workflow runs for an event, by its `on:` filters, as GitHub documents them
// ("Events that trigger workflows" and "Workflow syntax: on.<push|pull_request>.<branches|tags|paths>",
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax): branch and
// tag filters match the ref's name with GitHub's filter patterns; a `!` pattern excludes what
// earlier ones matched and a later pattern includes it again; pull request branches are the base
// branch's; `types` default to opened, synchronize and reopened. The parser (GitHub's) has
// already refused what may not be combined (branches with branches-ignore).

export interface EventFacts {
  name: string;
  /** The ref the run is for: `refs/heads/main`, `refs/tags/v1`, a pull request's base branch. */
  ref: string;
  /**
   * The branch `branches` filters match where it is not the pushed ref's: a pull request's base
   * branch, a merge group's base branch, a workflow run's head branch.
   */
  baseRef?: string | undefined;
  /** A workflow_run's workflow (its `workflows` filter). */
  workflow?: string | undefined;
  /** The event's activity type (`github.event.action`). */
  action?: string | undefined;
  /** The files the event changed (a push's, a pull request's, as GitHub compares them), where known. */
  changedFiles?: readonly string[] | undefined;
}

export interface Verdict {
  runs: boolean;
  /** Why it does not run, or what could not be checked. */
  notes: string[];
}

/**
 * A filter pattern as a regular expression: `*` any characters but `/`, `**` any characters, `?`
 * zero or one of the character before, `+` one or more of it, `[...]` a range, `\` an escape.
 */
export function patternRegExp(pattern: string): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "*") {
      if (pattern[i + 1] === "*") {
        out += ".*";
        i++;
      } else out += "[^/]*";
    } else if (c === "?" || c === "+") out += c;
    else if (c === "[") {
      const end = pattern.indexOf("]", i);
      if (end < 0) out += "\\[";
      else {
        out += pattern.slice(i, end + 1);
        i = end;
      }
    } else if (c === "\\" && i + 1 < pattern.length) {
      out += `\\${pattern[i + 1]}`;
      i++;
    } else out += c.replace(/[.^$|(){}]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** Whether `name` passes a list of patterns, `!` ones excluding, the last that matches deciding. */
function passes(name: string, patterns: readonly string[]): boolean {
  let included = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith("!");
    if (patternRegExp(negated ? pattern.slice(1) : pattern).test(name)) included = !negated;
  }
  return included;
}

const DEFAULT_TYPES: Record<string, string[]> = {
  pull_request: ["opened", "synchronize", "reopened"],
  pull_request_target: ["opened", "synchronize", "reopened"],
};

/** The events whose `branches` filter matches a branch of the payload's (`baseRef`). */
const BRANCH_OF_PAYLOAD = new Set(["pull_request", "pull_request_target", "merge_group", "workflow_run"]);

/** Whether the workflow's `on:` runs it for this event. */
export function runsFor(events: EventsConfig, event: EventFacts): Verdict {
  const notes: string[] = [];
  if (!Object.hasOwn(events, event.name))
    return {
      runs: false,
      notes: [`its on: does not name ${event.name} (it names ${Object.keys(events).join(", ")})`],
    };
  const config = (events[event.name] ?? {}) as Record<string, string[] | undefined>;
  const no = (why: string): Verdict => ({ runs: false, notes: [why] });
  // Every activity type starts a workflow unless `types` names some; a pull request's by default
  // only opened, synchronize and reopened.
  const types = config.types ?? DEFAULT_TYPES[event.name];
  if (types !== undefined && event.action !== undefined && !types.includes(event.action))
    return no(`on.${event.name}.types is ${types.join(", ")}, and this is ${event.action}`);
  if (event.name === "workflow_run" && config.workflows && !config.workflows.includes(event.workflow ?? ""))
    return no(`on.workflow_run.workflows does not name ${event.workflow ?? "the workflow that ran"}`);
  if (BRANCH_OF_PAYLOAD.has(event.name)) {
    const base = event.baseRef ?? "";
    if (config.branches && !passes(base, config.branches))
      return no(`on.${event.name}.branches does not match the branch ${base}`);
    if (config["branches-ignore"] && passes(base, config["branches-ignore"]))
      return no(`on.${event.name}.branches-ignore matches the branch ${base}`);
  }
  if (event.name === "push") {
    const tag = event.ref.startsWith("refs/tags/") ? event.ref.slice("refs/tags/".length) : undefined;
    const branch = event.ref.startsWith("refs/heads/") ? event.ref.slice("refs/heads/".length) : undefined;
    const branchFilter = config.branches !== undefined || config["branches-ignore"] !== undefined;
    const tagFilter = config.tags !== undefined || config["tags-ignore"] !== undefined;
    if (branch !== undefined) {
      if (!branchFilter && tagFilter) return no("on.push filters tags only, and this is a branch");
      if (config.branches && !passes(branch, config.branches))
        return no(`on.push.branches does not match the branch ${branch}`);
      if (config["branches-ignore"] && passes(branch, config["branches-ignore"]))
        return no(`on.push.branches-ignore matches the branch ${branch}`);
    }
    if (tag !== undefined) {
      if (!tagFilter && branchFilter) return no("on.push filters branches only, and this is a tag");
      if (config.tags && !passes(tag, config.tags)) return no(`on.push.tags does not match the tag ${tag}`);
      if (config["tags-ignore"] && passes(tag, config["tags-ignore"]))
        return no(`on.push.tags-ignore matches the tag ${tag}`);
    }
  }
  if (config.paths !== undefined || config["paths-ignore"] !== undefined) {
    if (event.changedFiles === undefined)
      notes.push(`on.${event.name} filters paths, and the files it changed are not known: not checked`);
    else {
      const files = event.changedFiles;
      if (config.paths && !files.some((f) => passes(f, config.paths as string[])))
        return no(`on.${event.name}.paths matches none of the files the ${event.name} changed`);
      if (config["paths-ignore"] && files.every((f) => passes(f, config["paths-ignore"] as string[])))
        return no(`on.${event.name}.paths-ignore matches every file the ${event.name} changed`);
    }
  }
  return { runs: true, notes };
}
