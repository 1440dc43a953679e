import type { Recorder } from "../../engine/work-record.js";
import { workflowRepository } from "../../inputs/event.js";
import { InputError } from "../../inputs/input-error.js";
import type { GitHubClient } from "../client.js";
import { loadGitHubClient } from "../load-client.js";
import { deployedCommit } from "./commit.js";
import { DeploymentRecord } from "./deployment-record.js";
import { type DeploymentConfig, deploymentInputs, deploymentOutputs } from "./inputs.js";

/** A commit as GitHub names it in full. */
const FULL_SHA = /^[0-9a-f]{40}$/i;

/**
 * GitHub Deployments for an action that starts work (`runAction(definition, deployments)`): with
 * `environment` set, the work is recorded as a deployment of it; without, nothing is asked of GitHub.
 */
export const deployments: Recorder<typeof deploymentInputs> = {
  inputs: deploymentInputs,
  outputs: deploymentOutputs,
  create(all, action) {
    const config = all as DeploymentConfig & { wait: boolean; sha?: unknown };
    const environment = config.environment;
    if (environment === undefined) {
      for (const input of ["environment-url", "production-environment"] as const)
        if (config[input] !== undefined)
          throw new InputError(input, "needs environment: the deployment it describes");
      for (const input of ["transient-environment", "deactivate-environment"] as const)
        if (config[input]) throw new InputError(input, "needs environment: the deployment it describes");
      return undefined;
    }
    if (!config.wait)
      throw new InputError(
        "wait",
        "must be true with environment: a deployment's outcome is known only by waiting for the work",
      );
    const token = config["github-token"];
    if (!token)
      throw new InputError(
        "github-token",
        "is required with environment: the workflow's token (github.token) with deployments: write",
      );
    const repository = workflowRepository();
    if (!repository)
      throw new InputError(
        "environment",
        "needs the repository to deploy from (GITHUB_REPOSITORY, set in every workflow)",
      );
    if (typeof config.sha === "string" && config.sha && !FULL_SHA.test(config.sha))
      throw new InputError(
        "sha",
        "must be a full 40-character commit SHA with environment: GitHub records a deployment of a commit",
      );
    const sha = deployedCommit(config.sha);
    if (!sha)
      throw new InputError("environment", "needs the commit deployed: the workflow's GITHUB_SHA is not set");
    let client: Promise<GitHubClient> | undefined;
    return new DeploymentRecord({
      github: () => (client ??= loadGitHubClient(token)),
      ...repository,
      environment,
      environmentUrl: config["environment-url"],
      production: config["production-environment"],
      transient: config["transient-environment"],
      teardown: config["deactivate-environment"],
      sha,
      logUrl: runUrl(repository),
      action,
    });
  },
};

/** This workflow run's page (its attempt, when a re-run), for a deployment's logs. */
function runUrl({ owner, repo }: { owner: string; repo: string }): string {
  const server = process.env.GITHUB_SERVER_URL || "https://github.com";
  const run = process.env.GITHUB_RUN_ID;
  const attempt = process.env.GITHUB_RUN_ATTEMPT;
  const base = `${server}/${owner}/${repo}/actions`;
  if (!run) return base;
  return attempt ? `${base}/runs/${run}/attempts/${attempt}` : `${base}/runs/${run}`;
}
