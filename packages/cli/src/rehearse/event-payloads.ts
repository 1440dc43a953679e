// Every event GitHub documents that starts a workflow on a Linux runner ("Events that trigger
// workflows", https://docs.github.com/en/actions/reference/workflows-and-actions/events-that-trigger-workflows),
// each with the payload parts workflows read (its webhook's, "Webhook events and payloads"), its
// default activity type, and the ref and commit GitHub gives the run (GITHUB_REF, GITHUB_SHA).
// What a rehearsal cannot know (numbers, ids, names) stands in plainly; `--event-payload` lays a
// file's JSON over it. workflow_call is no event of its own: a caller's job starts it.

type Json = Record<string, unknown>;

/** What a payload is made of: the clone's commit and branch, and the repository. */
export interface PayloadFacts {
  sha: string;
  /** The branch or tag, as a ref. */
  ref: string;
  /** Its short name (`main`, `v1.2.0`). */
  name: string;
  repository: Json;
  sender: Json;
  inputs: Json;
}

export interface EventShape {
  /** The activity type (`github.event.action`) where the event has types; its first documented one. */
  action?: string;
  payload(facts: PayloadFacts): Json;
  /**
   * The run's ref, where it is not the clone's branch (most events run on the default branch, for
   * which the rehearsal takes the clone's branch or --ref).
   */
  ref?(facts: PayloadFacts, payload: Json): string;
}

const pullRequest = (f: PayloadFacts, number = 1) => ({
  number,
  title: "A pull request (rehearsal)",
  user: f.sender,
  head: { sha: f.sha, ref: f.name, repo: f.repository },
  base: { ref: "main", repo: f.repository },
});
const issue = { number: 1, title: "An issue (rehearsal)", user: { login: "rehearsal" } };
/** A pull request event's ref: its merge ref, as GitHub's is. */
const mergeRef = (_: PayloadFacts, payload: Json) =>
  `refs/pull/${String((payload.pull_request as Json | undefined)?.number ?? 1)}/merge`;

export const EVENT_SHAPES = {
  branch_protection_rule: { action: "created", payload: () => ({ rule: { name: "main" } }) },
  check_run: {
    action: "created",
    payload: (f) => ({ check_run: { name: "check", head_sha: f.sha, status: "queued" } }),
  },
  check_suite: {
    action: "completed",
    payload: (f) => ({ check_suite: { head_branch: f.name, head_sha: f.sha, conclusion: "success" } }),
  },
  create: {
    payload: (f) => ({ ref: f.name, ref_type: f.ref.startsWith("refs/tags/") ? "tag" : "branch" }),
    ref: (f) => f.ref,
  },
  delete: { payload: (f) => ({ ref: f.name, ref_type: f.ref.startsWith("refs/tags/") ? "tag" : "branch" }) },
  deployment: {
    payload: (f) => ({
      deployment: { id: 1, ref: f.name, sha: f.sha, task: "deploy", environment: "production" },
    }),
    ref: (f) => f.ref,
  },
  deployment_status: {
    payload: (f) => ({
      deployment_status: { state: "success", environment: "production" },
      deployment: { id: 1, ref: f.name, sha: f.sha, task: "deploy", environment: "production" },
    }),
    ref: (f) => f.ref,
  },
  discussion: { action: "created", payload: () => ({ discussion: { number: 1, title: "A discussion" } }) },
  discussion_comment: {
    action: "created",
    payload: () => ({ discussion: { number: 1, title: "A discussion" }, comment: { id: 1, body: "" } }),
  },
  fork: { payload: (f) => ({ forkee: { full_name: "someone/fork", owner: f.sender } }) },
  gollum: { payload: () => ({ pages: [{ page_name: "Home", action: "edited" }] }) },
  issue_comment: {
    action: "created",
    payload: () => ({ issue, comment: { id: 1, body: "", user: { login: "rehearsal" } } }),
  },
  issues: { action: "opened", payload: () => ({ issue }) },
  label: { action: "created", payload: () => ({ label: { name: "rehearsal" } }) },
  merge_group: {
    action: "checks_requested",
    payload: (f) => ({
      merge_group: {
        head_sha: f.sha,
        head_ref: `refs/heads/gh-readonly-queue/main/pr-1-${f.sha}`,
        base_ref: "refs/heads/main",
        base_sha: f.sha,
      },
    }),
    ref: (_, payload) => String((payload.merge_group as Json).head_ref),
  },
  milestone: { action: "created", payload: () => ({ milestone: { number: 1, title: "A milestone" } }) },
  page_build: { payload: () => ({ build: { status: "built" } }) },
  public: { payload: () => ({}) },
  pull_request: {
    action: "opened",
    payload: (f) => ({ number: 1, pull_request: pullRequest(f) }),
    ref: mergeRef,
  },
  pull_request_review: {
    action: "submitted",
    payload: (f) => ({ review: { state: "approved", user: f.sender }, pull_request: pullRequest(f) }),
    ref: mergeRef,
  },
  pull_request_review_comment: {
    action: "created",
    payload: (f) => ({ comment: { id: 1, body: "", user: f.sender }, pull_request: pullRequest(f) }),
    ref: mergeRef,
  },
  // The base branch's ref and commit: the workflow of the base runs, never the head's.
  pull_request_target: {
    action: "opened",
    payload: (f) => ({ number: 1, pull_request: pullRequest(f) }),
    ref: (_, payload) => `refs/heads/${String(((payload.pull_request as Json).base as Json).ref)}`,
  },
  push: {
    payload: (f) => ({ ref: f.ref, after: f.sha, head_commit: { id: f.sha } }),
    ref: (f) => f.ref,
  },
  registry_package: {
    action: "published",
    payload: () => ({ registry_package: { name: "app", package_type: "container" } }),
  },
  release: {
    action: "published",
    payload: (f) => ({
      release: {
        tag_name: f.ref.startsWith("refs/tags/") ? f.name : "v0.0.0-rehearsal",
        name: f.name,
        target_commitish: f.sha,
        draft: false,
        prerelease: false,
      },
    }),
    ref: (_, payload) => `refs/tags/${String((payload.release as Json).tag_name)}`,
  },
  // Its type is the event_type the dispatch sent; `on.repository_dispatch.types` filters it.
  repository_dispatch: { action: "rehearsal", payload: () => ({ client_payload: {} }) },
  schedule: { payload: () => ({}) },
  status: { payload: (f) => ({ sha: f.sha, state: "success", context: "ci" }) },
  watch: { action: "started", payload: () => ({}) },
  workflow_dispatch: { payload: (f) => ({ ref: f.ref, inputs: f.inputs }), ref: (f) => f.ref },
  workflow_run: {
    action: "completed",
    payload: (f) => ({
      workflow_run: {
        name: "CI",
        conclusion: "success",
        head_branch: f.name,
        head_sha: f.sha,
        event: "push",
      },
      workflow: { name: "CI" },
    }),
  },
} satisfies Record<string, EventShape>;

export type EventName = keyof typeof EVENT_SHAPES;
export const EVENTS = Object.keys(EVENT_SHAPES) as EventName[];
