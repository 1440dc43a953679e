// The kit's GitHub client, apart from the rest: only actions that talk to GitHub bundle Octokit.
export { type GitHubClient, GitHubRefusal, gitHubClient } from "./github/client.js";
