import { eventPayload, InputError, pullRequestOf } from "@cwp/action-kit";

/** What to build when the inputs name no branch, pull request or commit: the workflow's event. */
export interface EventRef {
  branch?: string;
  pullRequestId?: number;
  sha?: string;
  /** Said in the log: where the choice came from. */
  origin: string;
}

export function refFromEvent(): EventRef {
  const name = process.env.GITHUB_EVENT_NAME ?? "";
  const event = eventPayload();
  if (name === "pull_request" || name === "pull_request_target") {
    const { number, headSha } = pullRequestOf(event);
    if (number === undefined)
      throw new InputError("pull-request-id", `the ${name} event has no pull request number; set the input`);
    return {
      pullRequestId: number,
      ...(headSha ? { sha: headSha } : {}),
      origin: `the ${name} event`,
    };
  }
  const ref =
    (name === "push" ? (event.ref as string | undefined) : undefined) ?? process.env.GITHUB_REF ?? "";
  const sha = (name === "push" ? (event.after as string | undefined) : undefined) ?? process.env.GITHUB_SHA;
  const instead = "set branch, pull-request-id, sha or bundle-url";
  // Outside a workflow (the cwp CLI in another CI system or a terminal) there is no event at all.
  if (!name && !ref) throw new InputError("branch", `is required outside a GitHub workflow: ${instead}`);
  if (!ref.startsWith("refs/heads/"))
    throw new InputError(
      "branch",
      `the ${name || "workflow"} event is on ${ref || "no ref"}, not a branch; ${instead}`,
    );
  return {
    branch: ref.slice("refs/heads/".length),
    ...(sha ? { sha } : {}),
    origin: `the ${name || "workflow"} event`,
  };
}
