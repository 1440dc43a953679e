import { getOctokit } from "@actions/github";

// The one way an action talks to GitHub (deployments, the cost report's comment and issue):
// Octokit as @actions/github builds it, which takes the proxy variables (HTTPS_PROXY, NO_PROXY) and
// GITHUB_API_URL (GitHub Enterprise Server) from the runner's environment, as the platform client
// takes them for the platform.

export type GitHubClient = ReturnType<typeof getOctokit>;

/** The longest one GitHub call may take: the report is otherwise written, and the step must end. */
const GITHUB_CALL_TIMEOUT_MS = 30_000;

export function gitHubClient(token: string): GitHubClient {
  const octokit = getOctokit(token, { userAgent: "cwp-actions" });
  // Each call its own limit (Octokit has none of its own), within the caller's signal if it gave one.
  octokit.hook.before("request", (options) => {
    const limit = AbortSignal.timeout(GITHUB_CALL_TIMEOUT_MS);
    const given = options.request?.signal as AbortSignal | undefined;
    options.request = { ...options.request, signal: given ? AbortSignal.any([given, limit]) : limit };
  });
  // Every call, pages included, fails the same way: GitHub's refusals as `GitHubRefusal`.
  octokit.hook.error("request", (error, options) => {
    throw refusal(error, `${options.method} ${options.url}`) ?? error;
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
 * GitHub's refusal as its status and its own message, never the request (whose headers carry the
 * token); undefined when GitHub did not answer: Octokit gives a failure to reach it status 500
 * too, but no response.
 */
function refusal(error: unknown, route: string): GitHubRefusal | undefined {
  const { status, response } = error as { status?: unknown; response?: { data?: unknown } };
  if (typeof status !== "number" || status < 400 || !response) return undefined;
  const { data } = response;
  const message =
    typeof data === "object" && data !== null ? (data as { message?: unknown }).message : undefined;
  return new GitHubRefusal(
    route,
    status,
    typeof message === "string" ? message.slice(0, 200) : `status ${status}`,
  );
}
