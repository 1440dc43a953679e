import type { GitHubClient } from "../client.js";
import { listItems } from "../pages.js";
import type { GitHubBudget } from "../retry.js";

// GitHub's `auto_inactive` retires earlier successful deployments only of environments that are
// neither production nor transient; for those, and for a teardown, it is done here.

interface Environment {
  github: GitHubClient;
  owner: string;
  repo: string;
  environment: string;
}

/** The most deployments of one environment a walk reads: 10 pages of GitHub's 100. */
const MAX_PAGES = 10;

/**
 * Marks the environment's earlier deployments inactive, newest first: every one still active
 * (latest state `success`), or with `all` (a teardown) every one not inactive yet. The whole list
 * is walked, not only to the first inactive one: a cancelled or timed-out run is recorded
 * inactive, and an earlier walk may have been cut short by its budget or a GitHub error, so an
 * active deployment can lie behind an inactive one.
 */
export async function deactivateEarlier(
  env: Environment,
  options: { except: number | undefined; all: boolean; budget: GitHubBudget; logUrl: string },
): Promise<void> {
  const { github, owner, repo, environment } = env;
  const request = options.budget;
  const deployments = listItems<{ id: number }>(
    github,
    "/repos/{owner}/{repo}/deployments",
    { owner, repo, environment },
    request,
    MAX_PAGES,
  );
  for await (const deployment of deployments) {
    if (deployment.id === options.except) continue;
    const { data: latest } = await github.request(
      "GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses",
      { owner, repo, deployment_id: deployment.id, per_page: 1, request },
    );
    const state: unknown = Array.isArray(latest) ? latest[0]?.state : undefined;
    if (state === "inactive") continue;
    if (state === "success" || options.all)
      await github.request("POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses", {
        owner,
        repo,
        deployment_id: deployment.id,
        state: "inactive",
        log_url: options.logUrl,
        description: options.all ? "Torn down." : "Superseded by a later deployment.",
        request,
      });
  }
}
