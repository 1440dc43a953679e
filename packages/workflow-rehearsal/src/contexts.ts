import { join } from "node:path";
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
  /** runner.temp: where the event's payload is written for GITHUB_EVENT_PATH. */
  temp: string;
  /** The workflow's name, or its file's path where it has none (as `github.workflow` is). */
  workflow: string;
  file: string;
  token: string;
}

/** What a real run has and a rehearsal makes up whatever the event: said once, at the start. */
const ALWAYS_MADE_UP = {
  "github.run_id": "1",
  "github.run_number": "1",
  "github.run_attempt": "1",
  "runner.name": "rehearsal",
  "runner.os": "Linux",
  "runner.arch": "X64",
} as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** A payload's `object.field`, as text, where it has one. */
function payloadText(payload: Record<string, unknown>, object: string, field: string): string | undefined {
  const holder = payload[object];
  const value = isObject(holder) ? holder[field] : undefined;
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}

/** The repository's owner in the payload (`repository.owner.id`), where it names one. */
function ownerId(payload: Record<string, unknown>): string | undefined {
  const repository = payload.repository;
  const owner = isObject(repository) ? repository.owner : undefined;
  const id = isObject(owner) ? owner.id : undefined;
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

/**
 * What this rehearsal makes up, by name and value: the run's and the runner's facts, and what the
 * event's payload does not name (the actor and its id, the repository's id and its owner's).
 */
export function madeUp(event: RehearsalEvent): Record<string, string> {
  const { payload } = event;
  const missing: Record<string, string> = {};
  if (payloadText(payload, "sender", "login") === undefined) missing["github.actor"] = "rehearsal";
  if (payloadText(payload, "sender", "id") === undefined) missing["github.actor_id"] = "1";
  if (payloadText(payload, "repository", "id") === undefined) missing["github.repository_id"] = "1";
  if (ownerId(payload) === undefined) missing["github.repository_owner_id"] = "1";
  return { ...ALWAYS_MADE_UP, ...missing };
}

/** The `github` context of a job of the run. */
export function githubContext(facts: RunFacts, job: string): Record<string, unknown> {
  const { event } = facts;
  const payload = event.payload;
  // head_ref and base_ref are set only for pull_request and pull_request_target ("Contexts", github).
  const forPullRequest = event.name === "pull_request" || event.name === "pull_request_target";
  const pr = forPullRequest && isObject(payload.pull_request) ? payload.pull_request : undefined;
  const head = pr && isObject(pr.head) ? pr.head : undefined;
  const base = pr && isObject(pr.base) ? pr.base : undefined;
  const made = madeUp(event);
  const actor = payloadText(payload, "sender", "login") ?? (made["github.actor"] as string);
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
    repository_id: payloadText(payload, "repository", "id") ?? made["github.repository_id"],
    repository_owner_id: ownerId(payload) ?? made["github.repository_owner_id"],
    actor,
    actor_id: payloadText(payload, "sender", "id") ?? made["github.actor_id"],
    triggering_actor: actor,
    workflow: facts.workflow,
    workflow_ref: `${facts.repository}/${facts.file}@${event.ref}`,
    workflow_sha: event.sha,
    job,
    run_id: made["github.run_id"],
    run_number: made["github.run_number"],
    run_attempt: made["github.run_attempt"],
    retention_days: "90",
    server_url: "https://github.com",
    api_url: "https://api.github.com",
    graphql_url: "https://api.github.com/graphql",
    workspace: facts.workspace,
    event_path: join(facts.temp, "_github_workflow", "event.json"),
    // A step's own id (`__run`, `__run_2` for scripts without one), set step by step.
    action: "",
    action_path: "",
    token: facts.token,
  };
}

/**
 * The variables a runner gives every step from its contexts ("Variables reference", Default
 * environment variables, https://docs.github.com/en/actions/reference/workflows-and-actions/variables#default-environment-variables;
 * the runner's GitHubContext and RunnerContext): the `github` context's values of the names the
 * runner exports as GITHUB_*, and every text value of `runner` as RUNNER_*. An empty one is left
 * out, as the runner leaves out what its contexts do not hold (RUNNER_DEBUG without debug logging).
 */
export function defaultVariables(
  github: Record<string, unknown>,
  runner: Record<string, unknown>,
): Record<string, string> {
  const variables: Record<string, string> = { CI: "true", GITHUB_ACTIONS: "true" };
  for (const name of GITHUB_EXPORTED) {
    const value = github[name];
    // The action's own path, ref and repository belong to actions, not to a `run:` step.
    if (name.startsWith("action_") && value === "") continue;
    if (typeof value === "string" || typeof value === "boolean")
      variables[`GITHUB_${name.toUpperCase()}`] = String(value);
  }
  for (const [name, value] of Object.entries(runner))
    if (typeof value === "string" && value !== "") variables[`RUNNER_${name.toUpperCase()}`] = value;
  return variables;
}

/** The `github` context's names the runner exports (its GitHubContext's allow-list; the files are the step's own). */
const GITHUB_EXPORTED = [
  "action",
  "action_path",
  "action_ref",
  "action_repository",
  "actor",
  "actor_id",
  "api_url",
  "base_ref",
  "event_name",
  "event_path",
  "graphql_url",
  "head_ref",
  "job",
  "ref",
  "ref_name",
  "ref_protected",
  "ref_type",
  "repository",
  "repository_id",
  "repository_owner",
  "repository_owner_id",
  "retention_days",
  "run_attempt",
  "run_id",
  "run_number",
  "server_url",
  "sha",
  "triggering_actor",
  "workflow",
  "workflow_ref",
  "workflow_sha",
  "workspace",
] as const;

/** The `runner` context. */
export function runnerContext(temp: string): Record<string, unknown> {
  return {
    name: ALWAYS_MADE_UP["runner.name"],
    os: ALWAYS_MADE_UP["runner.os"],
    arch: ALWAYS_MADE_UP["runner.arch"],
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
  return typedValues((events.workflow_dispatch?.inputs ?? {}) as Record<string, InputSpec>, given, "--input");
}

/** An input as a workflow declares it (`workflow_dispatch` or `workflow_call`), its default evaluated. */
export interface InputSpec {
  type?: string;
  default?: unknown;
  required?: boolean;
  options?: string[];
}

/** Inputs typed as `declared` says, from text given by `how` (`--input` on the command line, a caller's `with:`). */
export function typedValues(
  declared: Record<string, InputSpec>,
  given: Record<string, string>,
  how: "--input" | "with:",
): Record<string, unknown> {
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
        throw new WorkflowError(
          `Required input '${name}' not provided (${how === "--input" ? `--input ${name}=...` : `with: ${name}: ...`})`,
        );
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
