import { say } from "@cwp/action-kit";
import {
  answerLost,
  CREATE_ATTEMPTS,
  type GitHubBudget,
  type GitHubClient,
  GitHubRefusal,
  listItems,
} from "@cwp/action-kit/github";
import { MARKER } from "@cwp/cost-report";

// The report as one sticky pull request comment, or one issue found by title and label (for
// scheduled runs), through the kit's GitHub client.

export interface GitHubTarget {
  github: GitHubClient;
  repository: { owner: string; repo: string };
  /** The step's cancel and deadline: every call and page within them. */
  budget: GitHubBudget;
}

/** The most pages of comments or issues read to find the report's own: 3,000 comments, 1,000 issues. */
const MAX_COMMENT_PAGES = 30;
const MAX_ISSUE_PAGES = 10;

/**
 * Why the report could not be posted, and what to change. Said as the step's failure once the
 * report is otherwise whole (job summary, files and outputs): the comment is the last thing done.
 */
export function commentFailure(error: unknown, comment: "pr" | "issue"): string {
  const where = comment === "pr" ? "comment on the pull request" : "issue";
  const asWhere = comment === "pr" ? "a comment on the pull request" : "an issue";
  // Host-neutral: a terminal prints the summary where a runner shows it on the run.
  const rest = "The rest of the report is written: its summary, files and outputs.";
  if (!(error instanceof GitHubRefusal))
    return `Posting the report as ${asWhere} failed: ${(error as Error).message}. ${rest}`;
  if (error.rateLimited) return `GitHub did not take the report's ${where} (${error.told}). ${rest}`;
  if (error.status === 401)
    return `GitHub did not accept the github-token for the report's ${where} (401: ${error.reason}). ${rest}`;
  if (error.status === 403 || error.status === 404) {
    const permission = comment === "pr" ? "pull-requests: write" : "issues: write";
    const fork = comment === "pr" ? " (a pull request from a fork only ever gets a read-only token)" : "";
    return `GitHub refused the report's ${where} (${error.status}: ${error.reason}): the github-token needs \`${permission}\` in the workflow's \`permissions\`${fork}. ${rest}`;
  }
  return `Posting the report as ${asWhere} failed: ${error.message}. ${rest}`;
}

/** What GitHub answers an installation token (the workflow's, or a GitHub App's) on `/user`. */
const INSTALLATION_REFUSAL = /resource not accessible by integration/i;

/** Who wrote something: a login, or (an installation token) a GitHub App's bot, whichever app. */
type Writer = { login: string } | { bot: true };

/**
 * Who the token writes as: a personal token's login from `/user`. An installation token (the
 * workflow's github-actions[bot], or a GitHub App's `<app-slug>[bot]`) is refused `/user`, and no
 * call it may make names its app: it writes as a bot, and only a bot's comment is its own. A
 * person's comment is never edited (anyone can paste the marker into one of theirs). Any other
 * refusal (a rate limit, SAML enforcement) is said as it is.
 */
async function writer(target: GitHubTarget): Promise<Writer> {
  try {
    const { data } = await target.github.request("GET /user", { request: target.budget });
    const login = (data as { login?: unknown })?.login;
    if (typeof login !== "string") throw new Error("GitHub answered GET /user without a login");
    return { login };
  } catch (error) {
    if (
      error instanceof GitHubRefusal &&
      error.status === 403 &&
      !error.rateLimited &&
      INSTALLATION_REFUSAL.test(error.reason)
    )
      return { bot: true };
    throw error;
  }
}

interface Authored {
  user?: { login?: unknown; type?: unknown } | null;
}
const writtenBy = (item: Authored, who: Writer) =>
  "login" in who
    ? item.user?.login === who.login
    : item.user?.type === "Bot" && typeof item.user.login === "string" && item.user.login.endsWith("[bot]");

/**
 * One report, whatever GitHub answered: finds the report's own comment or issue and updates it, or
 * creates it; when the creation's answer is lost (GitHub may have made it), looks again before
 * creating once more, at most CREATE_ATTEMPTS times.
 */
async function upsert<T>(
  budget: GitHubBudget,
  find: () => Promise<T | undefined>,
  update: (found: T) => Promise<{ data: Saved }>,
  create: () => Promise<{ data: Saved }>,
): Promise<{ saved: Saved; created: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const found = await find();
    if (found !== undefined) return { saved: (await update(found)).data, created: attempt > 1 };
    try {
      return { saved: (await create()).data, created: true };
    } catch (error) {
      if (attempt >= CREATE_ATTEMPTS || !answerLost(error, budget)) throw error;
    }
  }
}

interface Saved {
  html_url?: string;
  number?: number;
}

/** The first item `pick` takes from a list, within its pages. */
async function find<T>(items: AsyncIterable<T>, pick: (item: T) => boolean): Promise<T | undefined> {
  for await (const item of items) if (pick(item)) return item;
  return undefined;
}

/** Creates the report comment on the pull request, or updates the one an earlier run left. */
export async function upsertPullRequestComment(
  target: GitHubTarget,
  pullNumber: number,
  body: string,
): Promise<string> {
  const { repository: repo, budget } = target;
  const who = await writer(target);
  const mine = () =>
    find(
      listItems<Authored & { id: number; body?: unknown }>(
        target.github,
        "/repos/{owner}/{repo}/issues/{issue_number}/comments",
        { ...repo, issue_number: pullNumber },
        budget,
        MAX_COMMENT_PAGES,
      ),
      (c) => typeof c.body === "string" && c.body.startsWith(MARKER) && writtenBy(c, who),
    );
  const { saved, created } = await upsert(
    budget,
    mine,
    (found) =>
      target.github.rest.issues.updateComment({ ...repo, comment_id: found.id, body, request: budget }),
    () =>
      target.github.rest.issues.createComment({
        ...repo,
        issue_number: pullNumber,
        body,
        request: { ...budget, creates: true },
      }),
  );
  say(`${created ? "Created" : "Updated"} the cost report comment on pull request #${pullNumber}.`);
  return saved.html_url ?? "";
}

/** Finds the open issue with this title and label and replaces its body, or creates it. */
export async function upsertIssue(
  target: GitHubTarget,
  title: string,
  label: string,
  body: string,
): Promise<string> {
  const { repository: repo, budget } = target;
  const who = await writer(target);
  const mine = () =>
    find(
      listItems<Authored & { id: number; number?: unknown; title?: unknown; pull_request?: unknown }>(
        target.github,
        "/repos/{owner}/{repo}/issues",
        { ...repo, state: "open", labels: label },
        budget,
        MAX_ISSUE_PAGES,
      ),
      (i) => i.title === title && !i.pull_request && typeof i.number === "number" && writtenBy(i, who),
    );
  const { saved, created } = await upsert(
    budget,
    mine,
    (found) =>
      target.github.rest.issues.update({
        ...repo,
        issue_number: found.number as number,
        body,
        request: budget,
      }),
    () =>
      target.github.rest.issues.create({
        ...repo,
        title,
        body,
        labels: [label],
        request: { ...budget, creates: true },
      }),
  );
  say(`${created ? "Created" : "Updated"} issue #${saved.number} "${title}".`);
  return saved.html_url ?? "";
}
