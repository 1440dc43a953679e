import { say } from "@cwp/action-kit";
import { MARKER } from "../render/markdown.js";

// The report as one sticky pull request comment, or one issue found by title and label (for
// scheduled runs), through the GitHub REST API at GITHUB_API_URL.

export interface GitHubTarget {
  token: string;
  apiUrl: string;
  repository: string;
}

async function github<T>(target: GitHubTarget, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${target.apiUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${target.token}`,
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
      "user-agent": "cwp-usage-report",
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok) throw new GitHubRefusal(method, path, res.status, await res.text());
  return (await res.json()) as T;
}

/** GitHub answered a call with an error status; `reason` is its own `message`. */
export class GitHubRefusal extends Error {
  readonly reason: string;
  constructor(
    method: string,
    path: string,
    readonly status: number,
    text: string,
  ) {
    let reason = text.slice(0, 200);
    try {
      reason = String((JSON.parse(text) as { message?: unknown }).message ?? reason);
    } catch {}
    super(`GitHub ${method} ${path} answered ${status}: ${reason}`);
    this.reason = reason;
  }
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

/** Every item of a paginated GitHub list (per_page 100, following pages until a short one). */
async function all<T>(target: GitHubTarget, path: string): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const batch = await github<T[]>(
      target,
      "GET",
      `${path}${path.includes("?") ? "&" : "?"}per_page=100&page=${page}`,
    );
    items.push(...batch);
    if (batch.length < 100) return items;
  }
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
    return (await github<{ login: string }>(target, "GET", "/user")).login;
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
  const base = `/repos/${target.repository}/issues`;
  const [login, comments] = await Promise.all([
    identity(target),
    all<{ id: number; body?: string; html_url?: string } & Authored>(
      target,
      `${base}/${pullNumber}/comments`,
    ),
  ]);
  const mine = comments.find((c) => c.body?.startsWith(MARKER) && writtenBy(c, login));
  const saved = mine
    ? await github<{ html_url?: string }>(target, "PATCH", `${base}/comments/${mine.id}`, { body })
    : await github<{ html_url?: string }>(target, "POST", `${base}/${pullNumber}/comments`, { body });
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
  const base = `/repos/${target.repository}/issues`;
  const [login, issues] = await Promise.all([
    identity(target),
    all<{ number: number; title: string; pull_request?: unknown } & Authored>(
      target,
      `${base}?state=open&labels=${encodeURIComponent(label)}`,
    ),
  ]);
  const mine = issues.find((i) => i.title === title && !i.pull_request && writtenBy(i, login));
  const saved = mine
    ? await github<{ html_url?: string; number: number }>(target, "PATCH", `${base}/${mine.number}`, { body })
    : await github<{ html_url?: string; number: number }>(target, "POST", base, {
        title,
        body,
        labels: [label],
      });
  say(`${mine ? "Updated" : "Created"} issue #${saved.number} "${title}".`);
  return saved.html_url ?? "";
}
