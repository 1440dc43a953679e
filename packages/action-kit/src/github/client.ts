import { setTimeout as sleep } from "node:timers/promises";
import { getOctokit } from "@actions/github";
import { warn } from "../engine/host.js";
import { isLoopback } from "../inputs/shared.js";
import { GitHubRefusal, GitHubTimeout, GitHubUnreached } from "./errors.js";
import { type GitHubBudget, retryDelay } from "./retry.js";

// The one way an action talks to GitHub (deployments, the cost report's comment and issue):
// Octokit as @actions/github builds it, which takes the proxy variables (HTTPS_PROXY, NO_PROXY) and
// GITHUB_API_URL (GitHub Enterprise Server) from the runner's environment, as the platform client
// takes them for the platform. Every call is given the step's budget (`request: budget`): its
// cancel signal and its deadline bound the call, its retries and their waits.

export type GitHubClient = ReturnType<typeof getOctokit>;

/** The longest one attempt of a GitHub call may take, within the step's budget. */
const GITHUB_ATTEMPT_TIMEOUT_MS = 30_000;
/** Attempts after the first, for a 5xx or a rate limit (GitHub's docs ask for backoff, not how often). */
const RETRIES = 3;

export function gitHubClient(token: string): GitHubClient {
  const octokit = getOctokit(token, { userAgent: "cwp-actions" });
  const api = new URL(octokit.request.endpoint.DEFAULTS.baseUrl);
  if (api.protocol === "http:" && !isLoopback(api.hostname))
    warn("GITHUB_API_URL is plain http to another machine: the github-token travels unencrypted. Use https.");
  // Retried here rather than by @octokit/plugin-retry and plugin-throttling: their waits (Bottleneck)
  // take no signal, so a cancel sat out a retry's wait, and plugin-retry ignores `retry-after`.
  octokit.hook.wrap("request", async (request, options) => {
    const given = options.request;
    const budget = given as Partial<GitHubBudget> | undefined;
    const signal = budget?.signal;
    const deadline = budget?.deadline ?? Date.now() + GITHUB_ATTEMPT_TIMEOUT_MS;
    const route = `${options.method} ${options.url}`;
    for (let attempt = 0; ; attempt++) {
      const left = deadline - Date.now();
      if (left <= 0) throw new GitHubTimeout(route);
      signal?.throwIfAborted();
      // A creation's answer is waited for as long as the step may: one that comes late may carry
      // what GitHub made, and calling it lost would make it twice.
      const limit = attemptSignal(signal, budget?.creates ? left : Math.min(left, GITHUB_ATTEMPT_TIMEOUT_MS));
      // Set on `options` itself: the hook's `request` is bound to that object, and reads the
      // attempt's signal from it (an object passed to it instead is ignored).
      options.request = { ...given, signal: limit.signal };
      try {
        return await request(options);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (limit.timedOut) throw new GitHubTimeout(route);
        const failure = refusal(error, route) ?? unreached(error, route);
        const delay = retryDelay(failure, attempt, { creates: budget?.creates === true, retries: RETRIES });
        if (delay === undefined) throw failure;
        // A wait past the deadline is no retry: the refusal is told as it is (a rate limit as one).
        if (Date.now() + delay >= deadline) throw failure;
        await sleep(delay, undefined, { signal });
      } finally {
        limit.dispose();
      }
    }
  });
  return octokit;
}

/**
 * One attempt's signal: the step's cancel, or `ms` passing, told apart (a time-out is said as the
 * step's time running out, a cancel as a cancel); disposed once the attempt ends, so no timer or
 * listener outlives it.
 */
function attemptSignal(step: AbortSignal | undefined, ms: number) {
  const controller = new AbortController();
  let timedOut = false;
  const onCancel = () => controller.abort(step?.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no answer within ${ms} ms`));
  }, ms);
  step?.addEventListener("abort", onCancel, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    dispose: () => {
      clearTimeout(timer);
      step?.removeEventListener("abort", onCancel);
    },
  };
}

/**
 * GitHub's refusal as its status and its own message, never the request (whose headers carry the
 * token); undefined when GitHub did not answer: Octokit gives a failure to reach it status 500
 * too, but no response.
 */
function refusal(error: unknown, route: string): GitHubRefusal | undefined {
  const { status, response } = error as {
    status?: unknown;
    response?: { data?: unknown; headers?: Record<string, unknown> };
  };
  if (typeof status !== "number" || status < 400 || !response) return undefined;
  const { data } = response;
  const message =
    typeof data === "object" && data !== null ? (data as { message?: unknown }).message : undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers ?? {}))
    if (typeof value === "string" || typeof value === "number") headers[name.toLowerCase()] = String(value);
  return new GitHubRefusal(
    route,
    status,
    typeof message === "string" ? message.slice(0, 200) : `status ${status}`,
    headers,
  );
}

/** Connection failures that come before a request leaves this machine. */
const NEVER_SENT = new Set(["ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ENETUNREACH", "EHOSTUNREACH"]);

/** The system's code for why fetch failed (Octokit's error, fetch's, then the socket's). */
function failureCode(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const { code } = cause as { code?: unknown };
    if (typeof code === "string") return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

const unreached = (error: unknown, route: string) =>
  new GitHubUnreached(
    route,
    String((error as Error)?.message ?? error).slice(0, 200),
    NEVER_SENT.has(failureCode(error) ?? ""),
  );
