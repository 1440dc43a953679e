import type { EventsConfig } from "@actions/workflow-parser/model/workflow-template";
import { WorkflowError } from "./workflow.js";

// The contexts a runner gives a job, as GitHub documents them ("Contexts reference",
// https://docs.github.com/en/actions/reference/workflows-and-actions/contexts): `github` whole
// for the event, `runner`, `inputs` typed with their defaults. What only a real run has (its id,
// number, attempt, the actor where the event names none, the runner's machine) is made up, and
// the rehearsal says which.

export interface RehearsalEvent {
  /** The event's name (`github.event_name`) and payload (`github.event`). */
  name: string;
  payload: Record<string, unknown>;
  sha: string;
  ref: string;
}

export interface RunFacts {
  event: RehearsalEvent;
  /** owner/name. */
  repository: string;
  /** The repository's folder: github.workspace, and where hashFiles reads. */
  workspace: string;
  /** The workflow's name, or its file's path where it has none (as `github.workflow` is). */
  workflow: string;
  file: string;
  token: string;
}

/** What a real run has and a rehearsal makes up: said once, at the start. */
export const MADE_UP = {
  "github.run_id": "1",
  "github.run_number": "1",
  "github.run_attempt": "1",
  "runner.name": "rehearsal",
  "runner.os": "Linux",
  "runner.arch": "X64",
} as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The `github` context of a job of the run. */
export function githubContext(facts: RunFacts, job: string): Record<string, unknown> {
  const { event } = facts;
  const payload = event.payload;
  const pr = isObject(payload.pull_request) ? payload.pull_request : undefined;
  const head = pr && isObject(pr.head) ? pr.head : undefined;
  const base = pr && isObject(pr.base) ? pr.base : undefined;
  const sender = isObject(payload.sender) ? payload.sender : undefined;
  const actor = typeof sender?.login === "string" ? sender.login : "rehearsal";
  const tag = event.ref.startsWith("refs/tags/");
  return {
    event: payload,
    event_name: event.name,
    sha: event.sha,
    ref: event.ref,
    ref_name: event.ref
      .replace(/^refs\/(heads|tags)\//, "")
      .replace(/^refs\/pull\/(\d+)\/merge$/, "$1/merge"),
    ref_type: tag ? "tag" : "branch",
    ref_protected: false,
    head_ref: typeof head?.ref === "string" ? head.ref : "",
    base_ref: typeof base?.ref === "string" ? base.ref : "",
    repository: facts.repository,
    repository_owner: facts.repository.split("/")[0] ?? "",
    repositoryUrl: `git://github.com/${facts.repository}.git`,
    actor,
    triggering_actor: actor,
    workflow: facts.workflow,
    workflow_ref: `${facts.repository}/${facts.file}@${event.ref}`,
    workflow_sha: event.sha,
    job,
    run_id: MADE_UP["github.run_id"],
    run_number: MADE_UP["github.run_number"],
    run_attempt: MADE_UP["github.run_attempt"],
    retention_days: "90",
    server_url: "https://github.com",
    api_url: "https://api.github.com",
    graphql_url: "https://api.github.com/graphql",
    workspace: facts.workspace,
    action: "",
    action_path: "",
    token: facts.token,
  };
}

/** The `runner` context. */
export function runnerContext(temp: string): Record<string, unknown> {
  return {
    name: MADE_UP["runner.name"],
    os: MADE_UP["runner.os"],
    arch: MADE_UP["runner.arch"],
    temp,
    tool_cache: temp,
    environment: "github-hosted",
    debug: "",
  };
}

/**
 * The `inputs` of a workflow_dispatch, as the run has them: each declared input typed (a
 * boolean is a boolean, a number a number), its default where none was given. An input the
 * workflow does not declare, a required one missing, or a value its type refuses is refused as
 * GitHub refuses the dispatch.
 */
export function typedInputs(events: EventsConfig, given: Record<string, string>): Record<string, unknown> {
  const declared = (events.workflow_dispatch?.inputs ?? {}) as Record<
    string,
    { type?: string; default?: unknown; required?: boolean; options?: string[] }
  >;
  const unexpected = Object.keys(given).filter((name) => !Object.hasOwn(declared, name));
  if (unexpected.length > 0)
    throw new WorkflowError(
      `Unexpected inputs provided: ${JSON.stringify(unexpected)}; the workflow's inputs: ${Object.keys(declared).join(", ") || "none"}`,
    );
  const inputs: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(declared)) {
    const raw = Object.hasOwn(given, name) ? given[name] : spec.default;
    if (raw === undefined) {
      if (spec.required)
        throw new WorkflowError(`Required input '${name}' not provided (--input ${name}=...)`);
      inputs[name] = spec.type === "boolean" ? false : spec.type === "number" ? null : "";
      continue;
    }
    const text = String(raw);
    switch (spec.type) {
      case "boolean":
        if (text !== "true" && text !== "false")
          throw new WorkflowError(
            `Input '${name}' is a boolean: true or false (got ${JSON.stringify(text)})`,
          );
        inputs[name] = text === "true";
        break;
      case "number":
        if (!Number.isFinite(Number(text)) || text.trim() === "")
          throw new WorkflowError(`Input '${name}' is a number (got ${JSON.stringify(text)})`);
        inputs[name] = Number(text);
        break;
      case "choice":
        if (spec.options && !spec.options.includes(text))
          throw new WorkflowError(
            `Input '${name}' is one of ${spec.options.join(", ")} (got ${JSON.stringify(text)})`,
          );
        inputs[name] = text;
        break;
      default:
        inputs[name] = text;
    }
  }
  return inputs;
}
