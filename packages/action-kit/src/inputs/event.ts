import { readFileSync } from "node:fs";

/** The workflow event's payload (GITHUB_EVENT_PATH), or {} when there is none or it is unreadable. */
export function eventPayload(): Record<string, unknown> {
  const file = process.env.GITHUB_EVENT_PATH;
  if (!file) return {};
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The repository the workflow runs in (GITHUB_REPOSITORY, `owner/name`), or undefined without one. */
export function workflowRepository(): { owner: string; repo: string } | undefined {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(process.env.GITHUB_REPOSITORY ?? "");
  return match ? { owner: match[1] as string, repo: match[2] as string } : undefined;
}

/** The pull request an event's payload carries: its number and head commit, where it gives them. */
export function pullRequestOf(event: Record<string, unknown>): { number?: number; headSha?: string } {
  const pr = event.pull_request as { number?: unknown; head?: { sha?: unknown } } | undefined;
  const number = pr?.number ?? event.number;
  const headSha = pr?.head?.sha;
  return {
    ...(typeof number === "number" ? { number } : {}),
    ...(typeof headSha === "string" ? { headSha } : {}),
  };
}
