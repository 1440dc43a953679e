import { getOctokit } from "@actions/github";

// The one way an action talks to GitHub (the cost report's comment and issue; deployments next):
// Octokit as @actions/github builds it, which takes the proxy variables (HTTPS_PROXY, NO_PROXY) and
// GITHUB_API_URL (GitHub Enterprise Server) from the runner's environment, as the platform client
// takes them for the platform.

export type GitHubClient = ReturnType<typeof getOctokit>;

/** The longest one GitHub call may take: the report is otherwise written, and the step must end. */
const GITHUB_CALL_TIMEOUT_MS = 30_000;

export function gitHubClient(token: string): GitHubClient {
  const octokit = getOctokit(token, { userAgent: "cwp-actions" });
  // Each call its own limit (Octokit has none of its own).
  octokit.hook.before("request", (options) => {
    options.request = { ...options.request, signal: AbortSignal.timeout(GITHUB_CALL_TIMEOUT_MS) };
  });
  return octokit;
}

/** GitHub answered a call with an error status; `reason` is its own `message`. */
export class GitHubRefusal extends Error {
  constructor(
    readonly route: string,
    readonly status: number,
    readonly reason: string,
  ) {
    super(`GitHub ${route} answered ${status}: ${reason}`);
  }
}

/**
 * The call, with GitHub's refusals as `GitHubRefusal` (status and GitHub's own message, never the
 * request, whose headers carry the token).
 */
export async function gitHubCall<T>(route: string, call: () => Promise<{ data: T }>): Promise<T> {
  try {
    return (await call()).data;
  } catch (error) {
    // Octokit gives a failure to reach GitHub status 500 too, but no response: that is not GitHub's word.
    const { status, response } = error as { status?: unknown; response?: { data?: unknown } };
    if (typeof status !== "number" || status < 400 || !response) throw error;
    const data = response.data;
    const message =
      typeof data === "object" && data !== null ? (data as { message?: unknown }).message : undefined;
    throw new GitHubRefusal(
      route,
      status,
      typeof message === "string" ? message.slice(0, 200) : `status ${status}`,
    );
  }
}
