export const id = 754;
export const ids = [754];
export const modules = {

/***/ 7754:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  gitHubClient: () => (/* binding */ gitHubClient)
});

// EXTERNAL MODULE: external "node:timers/promises"
var promises_ = __webpack_require__(8500);
// EXTERNAL MODULE: ../../node_modules/.pnpm/@actions+github@9.1.1_patch_hash=5706f0f9f7a3eef85d83e1c67d52d4f9e23121e99d7147d41d486e0684779af4/node_modules/@actions/github/lib/github.js + 22 modules
var github = __webpack_require__(6941);
// EXTERNAL MODULE: ../../packages/action-kit/dist/engine/host.js
var host = __webpack_require__(7542);
// EXTERNAL MODULE: ../../packages/action-kit/dist/inputs/shared.js
var shared = __webpack_require__(3444);
// EXTERNAL MODULE: ../../packages/action-kit/dist/github/errors.js
var errors = __webpack_require__(1144);
;// CONCATENATED MODULE: ../../packages/action-kit/dist/github/retry.js
/** A secondary rate limit without `retry-after`: "wait for at least one minute before retrying". */
const SECONDARY_WAIT_MS = 60_000;
const BACKOFF_BASE_MS = 1000;
/** How long to wait before trying again, or undefined: the failure stands. */
function retryDelay(failure, attempt, options) {
    if (attempt >= options.retries)
        return undefined;
    // A creation that may have reached GitHub is looked for, not sent again (deployment-record.ts).
    if (!("status" in failure))
        return options.creates && !failure.neverSent ? undefined : backoff(attempt);
    if (failure.rateLimited) {
        const after = failure.retryAfterMs;
        if (after !== undefined)
            return after;
        const resetsAt = failure.resetsAt;
        if (failure.headers["x-ratelimit-remaining"] === "0" && resetsAt !== undefined)
            return Math.max(0, resetsAt - Date.now()) + 1000;
        return SECONDARY_WAIT_MS;
    }
    if (failure.status >= 500 && !options.creates)
        return backoff(attempt);
    return undefined;
}
/** Exponential backoff with full jitter: 0-1 s, 0-2 s, 0-4 s. */
const backoff = (attempt) => Math.random() * BACKOFF_BASE_MS * 2 ** attempt;
//# sourceMappingURL=retry.js.map
;// CONCATENATED MODULE: ../../packages/action-kit/dist/github/client.js






/** The longest one attempt of a GitHub call may take, within the step's budget. */
const GITHUB_ATTEMPT_TIMEOUT_MS = 30_000;
/** Attempts after the first, for a 5xx or a rate limit (GitHub's docs ask for backoff, not how often). */
const RETRIES = 3;
function gitHubClient(token) {
    const octokit = (0,github/* getOctokit */.Q)(token, { userAgent: "cwp-actions" });
    const api = new URL(octokit.request.endpoint.DEFAULTS.baseUrl);
    if (api.protocol === "http:" && !(0,shared/* isLoopback */.U9)(api.hostname))
        (0,host/* warn */.R8)("GITHUB_API_URL is plain http to another machine: the github-token travels unencrypted. Use https.");
    // Retried here rather than by @octokit/plugin-retry and plugin-throttling: their waits (Bottleneck)
    // take no signal, so a cancel sat out a retry's wait, and plugin-retry ignores `retry-after`.
    octokit.hook.wrap("request", async (request, options) => {
        const given = options.request;
        const budget = given;
        const signal = budget?.signal;
        const deadline = budget?.deadline ?? Date.now() + GITHUB_ATTEMPT_TIMEOUT_MS;
        const route = `${options.method} ${options.url}`;
        for (let attempt = 0;; attempt++) {
            const left = deadline - Date.now();
            if (left <= 0)
                throw new errors/* GitHubTimeout */.rn(route);
            signal?.throwIfAborted();
            // A creation's answer is waited for as long as the step may: one that comes late may carry
            // what GitHub made, and calling it lost would make it twice.
            const limit = attemptSignal(signal, budget?.creates ? left : Math.min(left, GITHUB_ATTEMPT_TIMEOUT_MS));
            // Set on `options` itself: the hook's `request` is bound to that object, and reads the
            // attempt's signal from it (an object passed to it instead is ignored).
            options.request = { ...given, signal: limit.signal };
            try {
                return await request(options);
            }
            catch (error) {
                if (signal?.aborted)
                    throw signal.reason;
                if (limit.timedOut)
                    throw new errors/* GitHubTimeout */.rn(route);
                const failure = refusal(error, route) ?? unreached(error, route);
                const delay = retryDelay(failure, attempt, { creates: budget?.creates === true, retries: RETRIES });
                if (delay === undefined)
                    throw failure;
                // A wait past the deadline is no retry: the refusal is told as it is (a rate limit as one).
                if (Date.now() + delay >= deadline)
                    throw failure;
                await (0,promises_.setTimeout)(delay, undefined, { signal });
            }
            finally {
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
function attemptSignal(step, ms) {
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
function refusal(error, route) {
    const { status, response } = error;
    if (typeof status !== "number" || status < 400 || !response)
        return undefined;
    const { data } = response;
    const message = typeof data === "object" && data !== null ? data.message : undefined;
    const headers = {};
    for (const [name, value] of Object.entries(response.headers ?? {}))
        if (typeof value === "string" || typeof value === "number")
            headers[name.toLowerCase()] = String(value);
    return new errors/* GitHubRefusal */.ke(route, status, typeof message === "string" ? message.slice(0, 200) : `status ${status}`, headers);
}
/** Connection failures that come before a request leaves this machine. */
const NEVER_SENT = new Set(["ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ENETUNREACH", "EHOSTUNREACH"]);
/** The system's code for why fetch failed (Octokit's error, fetch's, then the socket's). */
function failureCode(error) {
    for (let cause = error, depth = 0; cause && depth < 5; depth++) {
        const { code } = cause;
        if (typeof code === "string")
            return code;
        cause = cause.cause;
    }
    return undefined;
}
const unreached = (error, route) => new errors/* GitHubUnreached */.zz(route, String(error?.message ?? error).slice(0, 200), NEVER_SENT.has(failureCode(error) ?? ""));
//# sourceMappingURL=client.js.map

/***/ })

};
