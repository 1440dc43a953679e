import { say } from "@cwp/action-kit";
import { type GitHubClient, GitHubRefusal } from "@cwp/action-kit/github";
import { MARKER } from "../render/markdown.js";

// The report as one sticky pull request comment, or one issue found by title and label (for
// scheduled runs), through the kit's GitHub client.

export interface GitHubTarget {
  github: GitHubClient;
  repository: { owner: string; repo: string };
}

/**
 * Why the report could not be posted, and what to change. Said as the step's failure once the
 * report is otherwise whole (job summary, files and outputs): the comment is the last thing done.
 */
export function commentFailure(error: unknown, comment: "pr" | "issue"): string {
  const where = comment === "pr" ? "comment on the pull request" : "issue";
  // Host-neutral: a terminal prints the summary where a runner shows it on the run.
  const rest = "The rest of the report is written: its summary, files and outputs.";
  if (!(error instanceof GitHubRefusal))
    return `Posting the report as an ${where} failed: ${(error as Error).message}. ${rest}`;
  if (error.status === 401)
    return `GitHub did not accept the github-token for the report's ${where} (401: ${error.reason}). ${rest}`;
  if (error.status === 403 || error.status === 404) {
    const permission = comment === "pr" ? "pull-requests: write" : "issues: write";
    const fork = comment === "pr" ? " (a pull request from a fork only ever gets a read-only token)" : "";
    return `GitHub refused the report's ${where} (${error.status}: ${error.reason}): the github-token needs \`${permission}\` in the workflow's \`permissions\`${fork}. ${rest}`;
  }
  return `Posting the report as an ${where} failed: ${error.message}. ${rest}`;
}

/** The workflow token's identity: it may not read `/user`, and writes as this bot. */
const WORKFLOW_BOT = "github-actions[bot]";

/**
 * Who the token writes as: a personal token's login from `/user`; the workflow token (and any
 * installation token) is refused `/user` with 403 and writes as github-actions[bot]. Only what this
 * identity wrote is ever edited: anyone can paste the marker into a comment of theirs.
 */
async function identity(target: GitHubTarget): Promise<string> {
  try {
    return (await target.github.rest.users.getAuthenticated()).data.login;
  } catch (error) {
    if (error instanceof GitHubRefusal && error.status === 403) return WORKFLOW_BOT;
    throw error;
  }
}

interface Authored {
  user?: { login?: string } | null;
}
const writtenBy = (item: Authored, login: string) => item.user?.login === login;

/** Creates the report comment on the pull request, or updates the one an earlier run left. */
export async function upsertPullRequestComment(
  target: GitHubTarget,
  pullNumber: number,
  body: string,
): Promise<string> {
  const repo = target.repository;
  const [login, comments] = await Promise.all([
    identity(target),
    target.github.paginate(target.github.rest.issues.listComments, {
      ...repo,
      issue_number: pullNumber,
      per_page: 100,
    }),
  ]);
  const mine = comments.find((c) => c.body?.startsWith(MARKER) && writtenBy(c, login));
  const { data: saved } = mine
    ? await target.github.rest.issues.updateComment({ ...repo, comment_id: mine.id, body })
    : await target.github.rest.issues.createComment({ ...repo, issue_number: pullNumber, body });
  say(`${mine ? "Updated" : "Created"} the cost report comment on pull request #${pullNumber}.`);
  return saved.html_url ?? "";
}

/** Finds the open issue with this title and label and replaces its body, or creates it. */
export async function upsertIssue(
  target: GitHubTarget,
  title: string,
  label: string,
  body: string,
): Promise<string> {
  const repo = target.repository;
  const [login, issues] = await Promise.all([
    identity(target),
    target.github.paginate(target.github.rest.issues.listForRepo, {
      ...repo,
      state: "open",
      labels: label,
      per_page: 100,
    }),
  ]);
  const mine = issues.find((i) => i.title === title && !i.pull_request && writtenBy(i, login));
  const { data: saved } = mine
    ? await target.github.rest.issues.update({ ...repo, issue_number: mine.number, body })
    : await target.github.rest.issues.create({ ...repo, title, body, labels: [label] });
  say(`${mine ? "Updated" : "Created"} issue #${saved.number} "${title}".`);
  return saved.html_url ?? "";
}
