import type { GitHubClient } from "./client.js";

/**
 * The GitHub client for `token`, its code loaded only now: Octokit and its undici are a sixth of
 * an action's start (0.40 s of CPU against 0.34 s without, measured), and most steps never call
 * GitHub (no `environment:`, no report comment). Bundled as a chunk of its own beside the action's.
 */
export async function loadGitHubClient(token: string): Promise<GitHubClient> {
  const { gitHubClient } = await import("./client.js");
  return gitHubClient(token);
}
