// The kit's GitHub client and the deployments on it, apart from the rest: only actions that talk
// to GitHub bundle Octokit.
export { type GitHubClient, gitHubClient } from "./github/client.js";
export { deployments } from "./github/deployments/recorder.js";
export { answerLost, CREATE_ATTEMPTS, GitHubRefusal } from "./github/errors.js";
export { listItems } from "./github/pages.js";
export type { GitHubBudget } from "./github/retry.js";
