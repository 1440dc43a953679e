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
  if (!res.ok)
    throw new Error(`GitHub ${method} ${path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as T;
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

/** Creates the report comment on the pull request, or updates the one an earlier run left. */
export async function upsertPullRequestComment(
  target: GitHubTarget,
  pullNumber: number,
  body: string,
): Promise<string> {
  const base = `/repos/${target.repository}/issues`;
  const comments = await all<{ id: number; body?: string; html_url?: string }>(
    target,
    `${base}/${pullNumber}/comments`,
  );
  const mine = comments.find((c) => c.body?.startsWith(MARKER));
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
  const issues = await all<{ number: number; title: string; pull_request?: unknown }>(
    target,
    `${base}?state=open&labels=${encodeURIComponent(label)}`,
  );
  const mine = issues.find((i) => i.title === title && !i.pull_request);
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
