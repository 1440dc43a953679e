import type { GitHubClient } from "../client.js";

// GitHub's `auto_inactive` retires earlier successful deployments only of environments that are
// neither production nor transient; for those, and for a teardown, it is done here.

interface Environment {
  github: GitHubClient;
  owner: string;
  repo: string;
  environment: string;
}

/**
 * Marks the environment's earlier deployments inactive, newest first: those whose latest state is
 * `success`, or with `all` (a teardown) every one not inactive yet. The walk ends at the first one
 * already inactive: when it became so, those before it were settled by the same rule, so the cost
 * is the deployments since, not the environment's whole history.
 */
export async function deactivateEarlier(
  env: Environment,
  options: { except: number | undefined; all: boolean; signal: AbortSignal; logUrl: string },
): Promise<void> {
  const { github, owner, repo, environment } = env;
  const request = { signal: options.signal };
  const pages = github.paginate.iterator(github.rest.repos.listDeployments, {
    owner,
    repo,
    environment,
    per_page: 100,
    request,
  });
  for await (const { data: deployments } of pages)
    for (const deployment of deployments) {
      if (deployment.id === options.except) continue;
      const { data: latest } = await github.rest.repos.listDeploymentStatuses({
        owner,
        repo,
        deployment_id: deployment.id,
        per_page: 1,
        request,
      });
      const state = latest[0]?.state;
      if (state === "inactive") return;
      if (state === "success" || options.all)
        await github.rest.repos.createDeploymentStatus({
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
