import { eventPayload, pullRequestOf } from "../../inputs/event.js";

/**
 * The commit a step works on, for its deployment: the `sha` input where the action has one, on a
 * pull request event the pull request's head commit (the merge commit a workflow checks out is on
 * no branch, so GitHub would not show its deployment on the pull request), else the workflow's.
 */
export function deployedCommit(shaInput: unknown): string | undefined {
  if (typeof shaInput === "string" && shaInput) return shaInput.toLowerCase();
  const event = process.env.GITHUB_EVENT_NAME;
  if (event === "pull_request" || event === "pull_request_target") {
    const { headSha } = pullRequestOf(eventPayload());
    if (headSha && /^[0-9a-f]{40}$/.test(headSha)) return headSha;
  }
  return process.env.GITHUB_SHA || undefined;
}
