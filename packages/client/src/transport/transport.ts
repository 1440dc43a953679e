import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import { VERSION } from "../version.js";
import { Attempt } from "./attempt.js";
import { classifyNetworkError } from "./classify.js";
import { type Clock, realSpan, systemClock } from "./clock.js";
import {
  AbortedError,
  ConnectionError,
  CwpError,
  type CwpErrorInit,
  errorClassForStatus,
  NotTheApiError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
} from "./errors.js";
import { EnvHttpProxyAgent } from "./proxy-agent.js";
import { RateLimitBudget } from "./rate-limit.js";
import { schemeHint } from "./url-hints.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type QueryValue =
  | string
  | number
  | boolean
  | undefined
  | null
  | ReadonlyArray<string | number | boolean>;

/**
 * `idempotent`: safe to send again after any transient failure.
 * `start-work`: starts something remote (a build, a run, a restore, a create); sent again only when
 * the platform cannot have acted on it (no connection was made, or a 429).
 */
export type RequestSafety = "idempotent" | "start-work";

export interface TransportOptions {
  baseUrl: string;
  token: string;
  /** Per-attempt time limit for the response headers and body, ms. Default 30 000. */
  timeoutMs?: number;
  /** Further attempts after the first. Default 3. */
  maxRetries?: number;
  /** Backoff base and cap (exponential with full jitter), ms. Defaults 500 and 8 000. */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** The longest the client waits for a rate-limit window to reset, ms. Default 300 000. */
  maxRateLimitWaitMs?: number;
  /** An undici dispatcher; default an EnvHttpProxyAgent (honours HTTPS_PROXY, HTTP_PROXY, NO_PROXY). */
  dispatcher?: Dispatcher;
  userAgent?: string;
  /** Where time is read and waited; default the system's. */
  clock?: Clock;
  /**
   * What the client has to say that is no error: a status the spec does not list, a list whose
   * cursors go round. Default: `process.emitWarning`.
   */
  onWarning?: (message: string) => void;
}

export interface RequestSpec {
  method: HttpMethod;
  /** The full request path, already encoded (`/v1/...`). */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  /** Default: `idempotent` for GET, PUT and DELETE; `start-work` otherwise. */
  safety?: RequestSafety | undefined;
  /** For start-work requests: what to look at before trying again when the outcome is unknown. */
  checkHint?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Epoch ms after which no attempt starts and no wait extends. */
  deadline?: number | undefined;
  /**
   * Sent even when the rate-limit budget is spent, without waiting for the reset: for the abort
   * of work nobody would otherwise stop (one request over budget is better than that).
   */
  urgent?: boolean | undefined;
  /**
   * Reads a 2xx body as it arrives instead of whole (a large read); returns what stands for the
   * body (for a list, its envelope). Called once per attempt: a retry reads the body anew. The
   * attempt is then bounded by the deadline as a whole and by `timeoutMs` between two chunks.
   */
  readBody?: ((body: AsyncIterable<Uint8Array>) => Promise<unknown>) | undefined;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

interface RequestMessage {
  origin: string;
  /** Under the base URL's own path, with the query. */
  path: string;
  headers: Readonly<Record<string, string>>;
  body: string | undefined;
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
/**
 * Attempts of one request that may go unanswered (no connection or no response in time) before it
 * fails: a platform that answered neither is down or unreachable, and two more attempts would only
 * keep the step another minute before saying so.
 */
const MAX_UNANSWERED = 2;
/** undici's own default for opening a connection. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Where the client's warnings go when the caller names no `onWarning`: Node's own warnings. */
export const emitCwpWarning = (message: string) => process.emitWarning(message, "CwpWarning");

export class Transport {
  readonly clock: Clock;
  readonly rateLimit: RateLimitBudget;
  /** How far the platform's clock (its last `Date` header) stood from ours, ms. */
  #platformOffset = 0;
  /** Says what the client has to say that is no error (`onWarning`). */
  readonly warn: (message: string) => void;
  readonly #options: Required<Omit<TransportOptions, "dispatcher" | "userAgent" | "clock" | "onWarning">> & {
    userAgent: string;
  };
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  /** The base URL's own path (`/api` of `https://example.com/api`), before every request path. */
  readonly #basePath: string;
  /** The headers of every request (one object for all: undici only reads them). */
  readonly #headers: Readonly<Record<string, string>>;
  /** Where requests go; also for messages: which API URL was tried (an origin has no credentials or query). */
  readonly #origin: string;

  constructor(options: TransportOptions) {
    if (!options.baseUrl) throw new TypeError("baseUrl is required");
    if (!options.token) throw new TypeError("token is required");
    const base = URL.parse(options.baseUrl);
    if (!base || (base.protocol !== "http:" && base.protocol !== "https:"))
      throw new TypeError("baseUrl must be an http or https URL");
    this.#origin = base.origin;
    this.#basePath = base.pathname.replace(/\/+$/, "");
    this.clock = options.clock ?? systemClock;
    this.warn = options.onWarning ?? emitCwpWarning;
    this.rateLimit = new RateLimitBudget(this.clock);
    this.#ownsDispatcher = options.dispatcher === undefined;
    const timeoutMs = options.timeoutMs ?? 30_000;
    // Connecting (TLS included) gets undici's 10 s, or the attempt's whole time when that is less.
    this.#dispatcher =
      options.dispatcher ??
      new EnvHttpProxyAgent({ connect: { timeout: Math.min(CONNECT_TIMEOUT_MS, timeoutMs) } });
    this.#options = {
      baseUrl: options.baseUrl,
      token: options.token,
      timeoutMs,
      maxRetries: options.maxRetries ?? 3,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
      retryMaxDelayMs: options.retryMaxDelayMs ?? 8_000,
      maxRateLimitWaitMs: options.maxRateLimitWaitMs ?? 300_000,
      userAgent: options.userAgent ?? `cwp-client/${VERSION} node/${process.version}`,
    };
    this.#headers = Object.freeze({
      authorization: `Bearer ${options.token}`,
      accept: "application/json",
      "user-agent": this.#options.userAgent,
    });
  }

  /**
   * The platform's time as its last answer's `Date` header put it (whole seconds), or ours before
   * any answer: for telling a line from the future from one of a platform whose clock runs ahead.
   */
  platformNow(): number {
    return this.clock.now() + this.#platformOffset;
  }

  async send(spec: RequestSpec): Promise<RawResponse> {
    const safety =
      spec.safety ??
      (spec.method === "GET" || spec.method === "PUT" || spec.method === "DELETE"
        ? "idempotent"
        : "start-work");
    const base: CwpErrorInit = { method: spec.method, path: spec.path };
    // Made once, before the first await: every attempt sends the same request, whatever the caller
    // does with its query or body meanwhile.
    const message = this.#message(spec);
    /** When the request first left, for "check what was started since". */
    let sentAt: number | undefined;
    /** Attempts the platform did not answer in time: after two it is not answering, and no third goes. */
    let unanswered = 0;
    for (let attempt = 0; ; attempt++) {
      if (this.#remaining(spec) <= 0)
        throw new TimeoutError(`${base.method} ${base.path} was not sent: the deadline has passed`, base);
      // Awaited only when there is something to wait for: most requests go at once.
      if (!spec.urgent && this.rateLimit.delayBeforeSend() > 0) await this.#waitForBudget(spec, base);
      sentAt ??= this.clock.now();
      const outcome = await this.#attempt(spec, message, base);
      const retriesLeft = attempt < this.#options.maxRetries;

      if (outcome.kind === "response") {
        const { response } = outcome;
        const date = Date.parse(String(response.headers.date ?? ""));
        if (!Number.isNaN(date)) this.#platformOffset = date - this.clock.now();
        if (response.status >= 300 && response.status < 400) throw this.#redirected(response, base);
        if (response.status < 400) return response;
        const error = this.#httpError(response, base);
        if (response.status === 429) {
          // The platform did not act on a 429: any request may go again once the window resets.
          if (!retriesLeft) throw error;
          await this.#waitFor(this.rateLimit.delayBeforeSend() || this.#backoff(attempt), spec, base, error);
          continue;
        }
        if (RETRYABLE_STATUS.has(response.status) && safety === "idempotent" && retriesLeft) {
          await this.#waitFor(this.#backoff(attempt), spec, base, error);
          continue;
        }
        if (safety === "start-work" && (response.status >= 500 || response.status === 408)) {
          throw this.#outcomeUnknown(error, spec, sentAt);
        }
        throw error;
      }

      const { error: last, neverSent } = outcome;
      // After several attempts, the error says how many and over how long: the time waited in all.
      const error = attempt > 0 ? this.#afterAttempts(last, attempt + 1, sentAt) : last;
      // A change that was sent and got no answer (a start, an upgrade, an abort) may have been
      // made all the same: when no attempt follows, say so.
      const unknown = () =>
        spec.method !== "GET" && !neverSent ? this.#outcomeUnknown(error, spec, sentAt) : error;
      if (error instanceof AbortedError) throw unknown();
      if (error instanceof TimeoutError) unanswered += 1;
      if ((safety === "idempotent" || neverSent) && retriesLeft && unanswered < MAX_UNANSWERED) {
        try {
          await this.#waitFor(this.#backoff(attempt), spec, base, error);
        } catch (stopped) {
          throw stopped === error ? unknown() : stopped;
        }
        continue;
      }
      throw unknown();
    }
  }

  /** Where a request goes, its headers and body, as every attempt sends them. */
  #message(spec: RequestSpec): RequestMessage {
    const path = this.#pathOf(spec);
    if (spec.body === undefined)
      return { origin: this.#origin, path, headers: this.#headers, body: undefined };
    return {
      origin: this.#origin,
      path,
      headers: { ...this.#headers, "content-type": "application/json" },
      body: JSON.stringify(spec.body),
    };
  }

  async #attempt(
    spec: RequestSpec,
    message: RequestMessage,
    base: CwpErrorInit,
  ): Promise<
    { kind: "response"; response: RawResponse } | { kind: "failure"; error: CwpError; neverSent: boolean }
  > {
    // Timers count this machine's time: what is left on a sped-up clock is that much shorter here.
    const left = realSpan(this.clock, this.#remaining(spec));
    const timeout = Math.max(1, Math.ceil(Math.min(this.#options.timeoutMs, left)));
    const began = this.clock.now();
    if (spec.signal?.aborted)
      return {
        kind: "failure",
        error: new AbortedError(`${base.method} ${base.path} was aborted before it was sent`, base),
        neverSent: true,
      };
    // The whole attempt, body included, ends within `timeout`: a body that trickles in does not
    // keep it alive, and the caller's deadline bounds it. A body read as it arrives may take longer
    // than one timeout (it is large), so only the deadline bounds it as a whole.
    const attempt = new Attempt({
      ms: spec.readBody ? left : timeout,
      signal: spec.signal,
      at: base,
      onHeaders: (headers) => this.rateLimit.update(headers),
      readBody: spec.readBody,
    });
    try {
      this.rateLimit.take();
      this.#dispatcher.dispatch(
        { ...message, method: spec.method, headersTimeout: timeout, bodyTimeout: timeout },
        attempt,
      );
      const { status, headers, text, read } = await attempt.answer;
      const body = read ? read.value : this.#parseBody(text, status, headers, base);
      return { kind: "response", response: { status, headers, body } };
    } catch (cause) {
      if (cause instanceof CwpError) throw cause;
      if (spec.signal?.aborted) {
        return {
          kind: "failure",
          error: new AbortedError(`${base.method} ${base.path} was aborted`, base),
          neverSent: false,
        };
      }
      const failure = classifyNetworkError(cause);
      const sent = attempt.responded;
      const neverSent = !sent && failure.neverSent;
      const init = { ...base, cause: this.#redactedCause(cause) };
      // The time actually waited: a connection is given up sooner than an answer.
      const waited = formatSeconds(this.clock.now() - began);
      const error =
        failure.timedOut || attempt.timedOut
          ? new TimeoutError(
              spec.readBody && sent
                ? `${base.method} ${base.path} did not finish its answer in time (nothing for ${timeout} ms, or past the deadline)`
                : failure.code === "UND_ERR_CONNECT_TIMEOUT" || !attempt.connected
                  ? `${base.method} ${base.path}: the platform at ${this.#origin} did not accept a connection within ${waited} (no connection was made)`
                  : `${base.method} ${base.path}: the platform at ${this.#origin} did not answer within ${waited}`,
              init,
            )
          : new ConnectionError(
              `${base.method} ${base.path} failed: ${failure.code ?? "connection error"} at ${this.#origin}${neverSent ? " (no connection was made)" : ""}${schemeHint(this.#origin, failure.code, sent)}`,
              init,
            );
      return { kind: "failure", error, neverSent };
    }
  }

  #parseBody(text: string, status: number, headers: IncomingHttpHeaders, base: CwpErrorInit): unknown {
    if (text === "") return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // A redirect's page (a login form) is no answer: the redirect itself says what is wrong.
      if (status >= 300 && status < 400) return undefined;
      if (status < 400 && /html/i.test(String(headers["content-type"] ?? "")))
        throw new NotTheApiError(
          `${base.method} ${base.path} answered ${status} with an HTML page, not the API's JSON: ${this.#checkUrl()}`,
          { ...base, status },
        );
      if (status < 400) {
        throw new UnexpectedResponseError(
          `${base.method} ${base.path} answered ${status} with a body that is not JSON (${headers["content-type"] ?? "no content type"})`,
          { ...base, status },
        );
      }
      // An error page from a proxy or load balancer: the status says enough.
      return undefined;
    }
    // "Every successful response has a top-level object `data`" (the spec, §1): JSON without it
    // is another product's API, which acted on nothing of ours.
    if (
      status >= 200 &&
      status < 300 &&
      (parsed === null || typeof parsed !== "object" || !("data" in parsed))
    )
      throw new NotTheApiError(
        `${base.method} ${base.path} answered ${status} with JSON that is not the API's (no "data", which every answer of the API has): ${this.#checkUrl()}`,
        { ...base, status },
      );
    return parsed;
  }

  #httpError(response: RawResponse, base: CwpErrorInit): CwpError {
    const body = response.body as
      | { error?: { message?: unknown; id?: unknown; details?: unknown } }
      | undefined;
    const platformError = typeof body === "object" && body !== null ? body.error : undefined;
    // A server may echo the request back, the Authorization header with it: the token is
    // redacted from every part of the error, not only its message.
    const serverMessage =
      typeof platformError?.message === "string" ? this.#redact(platformError.message) : undefined;
    const errorId = typeof platformError?.id === "string" ? this.#redact(platformError.id) : undefined;
    const details = this.#redactDeep(platformError?.details);
    const ErrorClass = errorClassForStatus(response.status);
    const message = [
      `${base.method} ${base.path} failed with ${response.status}`,
      serverMessage ? `: ${serverMessage}` : this.#notTheApi(response),
      describeDetails(details),
      errorId ? ` (error id ${errorId})` : "",
      this.#hint(response.status),
    ].join("");
    const error = new ErrorClass(message, {
      ...base,
      status: response.status,
      errorId,
      details,
    });
    if (error instanceof RateLimitError) error.resetAt = this.rateLimit.state.resetAt;
    return error;
  }

  /**
   * A 404 that is a web page, not the API's JSON error, or a 405 (the API documents none): the URL
   * points at a website, a proxy or the wrong path, not at the platform's API. Said as such, or
   * the user reads "not found" as their project missing.
   */
  #notTheApi(response: RawResponse): string {
    const type = String(response.headers["content-type"] ?? "");
    if (response.status === 405) return `: ${this.#checkUrl()}`;
    if (response.status !== 404 || response.body !== undefined || /json/i.test(type)) return "";
    return `: the answer is ${/html/i.test(type) ? "an HTML page" : "not JSON"}, not the API's; ${this.#checkUrl()}`;
  }

  /** The one advice for an API URL that answers as something else than the API. */
  #checkUrl(): string {
    return `${this.#origin} is not the API: check the API URL (api-url / CWP_API_URL). Nothing was started there`;
  }

  /** What to do about a status, where the status alone does not say. */
  #hint(status: number): string {
    if (status === 401) return ". Check the API token: it is missing, wrong, expired or for another account.";
    if (status === 429) {
      const resetAt = this.rateLimit.state.resetAt;
      const seconds =
        resetAt === undefined ? undefined : Math.max(0, Math.ceil((resetAt - this.clock.now()) / 1000));
      return seconds === undefined
        ? ". The account's hourly request limit is spent."
        : `. The account's hourly request limit is spent; it resets in ${seconds} s.`;
    }
    return "";
  }

  /** A 3xx: the platform answers its API directly, so the base URL points somewhere else. */
  #redirected(response: RawResponse, base: CwpErrorInit): CwpError {
    const location = response.headers.location;
    return new NotTheApiError(
      `${base.method} ${base.path} was redirected (${response.status}${location ? ` to ${this.#redact(String(location))}` : ""}): ${this.#checkUrl()}`,
      { ...base, status: response.status },
    );
  }

  /** The last attempt's error, saying how many attempts were made since `since` and over how long. */
  #afterAttempts(error: CwpError, attempts: number, since: number | undefined): CwpError {
    const over = since === undefined ? "" : ` over ${formatSeconds(this.clock.now() - since)}`;
    return retold(error, `${error.message} (${attempts} attempts${over})`, { cause: error.cause });
  }

  #outcomeUnknown(error: CwpError, spec: RequestSpec, sentAt: number | undefined): CwpError {
    const when = sentAt === undefined ? "" : ` (the request was sent at ${new Date(sentAt).toISOString()})`;
    const check = spec.checkHint
      ? ` Check ${spec.checkHint}${when} before trying again.`
      : ` Check whether it took effect${when} before trying again.`;
    return retold(
      error,
      `${error.message}. The outcome is unknown: the platform may have acted on the request, so it was not sent again.${check}`,
      { outcomeUnknown: true, cause: error },
    );
  }

  async #waitForBudget(spec: RequestSpec, base: CwpErrorInit): Promise<void> {
    const wait = this.rateLimit.delayBeforeSend();
    if (wait <= 0) return;
    const error = new RateLimitError(
      `${base.method} ${base.path} was not sent: the rate-limit budget is spent and resets in ${Math.ceil(wait / 1000)} s`,
      base,
    );
    error.resetAt = this.rateLimit.state.resetAt;
    await this.#waitFor(wait, spec, base, error);
  }

  /** Waits before the next attempt, unless that passes the caller's deadline or the wait limit. */
  async #waitFor(
    ms: number,
    spec: RequestSpec,
    base: CwpErrorInit,
    reasonIfTooLong: CwpError,
  ): Promise<void> {
    const limit =
      reasonIfTooLong instanceof RateLimitError ? this.#options.maxRateLimitWaitMs : Number.POSITIVE_INFINITY;
    if (ms > limit || ms >= this.#remaining(spec)) throw reasonIfTooLong;
    try {
      await this.clock.sleep(ms, spec.signal);
    } catch (cause) {
      throw new AbortedError(`${base.method} ${base.path} was aborted`, {
        ...base,
        cause: this.#redactedCause(cause),
      });
    }
  }

  #backoff(attempt: number): number {
    const cap = Math.min(this.#options.retryMaxDelayMs, this.#options.retryBaseDelayMs * 2 ** attempt);
    return Math.random() * cap;
  }

  #remaining(spec: RequestSpec): number {
    return spec.deadline === undefined ? Number.POSITIVE_INFINITY : spec.deadline - this.clock.now();
  }

  #pathOf(spec: RequestSpec): string {
    let search: URLSearchParams | undefined;
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value === undefined || value === null) continue;
      search ??= new URLSearchParams();
      for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
    }
    const qs = search?.toString();
    return `${this.#basePath}${spec.path}${qs ? `?${qs}` : ""}`;
  }

  #redact(text: string): string {
    return text.split(this.#options.token).join("***");
  }

  /**
   * Any JSON value with the token redacted from every string in it, keys included, to a bounded
   * depth: an error body nested 100,000 deep would otherwise end the process with "Maximum call
   * stack size exceeded".
   */
  #redactDeep(value: unknown, depth = 0): unknown {
    if (typeof value === "string") return this.#redact(value);
    if (typeof value !== "object" || value === null) return value;
    if (depth >= MAX_DETAIL_DEPTH) return `(nested deeper than ${MAX_DETAIL_DEPTH} levels)`;
    if (Array.isArray(value)) return value.map((v) => this.#redactDeep(v, depth + 1));
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [this.#redact(k), this.#redactDeep(v, depth + 1)]),
    );
  }

  /** Keeps a network error's code and message for debugging, without anything that could carry the token. */
  #redactedCause(cause: unknown): Error {
    const message = cause instanceof Error ? this.#redact(cause.message) : "unknown failure";
    const copy = new Error(message);
    const code = classifyNetworkError(cause).code;
    if (code) Object.assign(copy, { code });
    return copy;
  }

  /** Closes the connection pool this transport made (a dispatcher passed in stays open). */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }
}

/** How deep error details are kept; the spec's are two levels (field, then messages). */
const MAX_DETAIL_DEPTH = 16;

function describeDetails(details: unknown): string {
  if (typeof details !== "object" || details === null || Array.isArray(details)) return "";
  const parts = Object.entries(details as Record<string, unknown>).map(
    ([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.join(", ") : String(messages)}`,
  );
  return parts.length > 0 ? ` (${parts.join("; ")})` : "";
}

/** 30000 ms as "30 s", 1500 as "1.5 s". */
/** The same error, of the same class and about the same request, told with another message. */
function retold(
  error: CwpError,
  message: string,
  init: { outcomeUnknown?: boolean; cause: unknown },
): CwpError {
  const ErrorClass = error.constructor as typeof CwpError;
  return new ErrorClass(message, {
    method: error.method,
    path: error.path,
    status: error.status,
    errorId: error.errorId,
    details: error.details,
    ...init,
  });
}

const formatSeconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;
