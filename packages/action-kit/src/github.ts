// The kit's GitHub client and the deployments on it, apart from the rest: only actions that talk
// to GitHub bundle Octokit, and load it only when a step calls GitHub (load-client.ts).
export type { GitHubClient } from "./github/client.js";
export { deployments } from "./github/deployments/recorder.js";
export { answerLost, CREATE_ATTEMPTS, GitHubRefusal } from "./github/errors.js";
export { loadGitHubClient } from "./github/load-client.js";
export { listItems } from "./github/pages.js";
export type { GitHubBudget } from "./github/retry.js";
