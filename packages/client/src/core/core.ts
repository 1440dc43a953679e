import type { IncomingHttpHeaders } from "node:http";
import type { z } from "zod";
import { NotTheApiError, UnexpectedResponseError } from "../transport/errors.js";
import type {
  HttpMethod,
  QueryValue,
  RequestSafety,
  RequestSpec,
  Transport,
} from "../transport/transport.js";
import type { Conclusion } from "../waiting/conclusions.js";
import { pollUntilConcluded, type WaitOptions } from "../waiting/poll.js";
import { PageWalk } from "./page-walk.js";
import { twinPath } from "./path.js";
import { parseResponse, validateRequest } from "./validate.js";

/** Options every operation takes. */
export interface CallOptions {
  /** Team for the `/v1/teams/{teamId}/` twin; overrides the client's. `null` sends the plain path. */
  teamId?: string | null | undefined;
  signal?: AbortSignal | undefined;
  /** Epoch ms: no attempt starts and no retry or rate-limit wait extends past it. */
  deadline?: number | undefined;
  /** Sent even with the rate-limit budget spent (for aborting work); see `RequestSpec.urgent`. */
  urgent?: boolean | undefined;
  /**
   * Runs once the request is known to be valid, just before it is first sent: what must happen
   * only for a request that will really go out (a record of the work kept elsewhere). A throw
   * stops the call with nothing sent.
   */
  beforeSend?: (() => Promise<void>) | undefined;
  /**
   * For lists walked page by page: a walk that cannot read the whole list (a page repeated, a
   * cursor handed out again, past MAX_PAGES) throws IncompleteListError instead of ending with a
   * warning. For reads whose result replaces data, such as an export.
   */
  wholeList?: boolean | undefined;
}

/** `options` with a second signal that also stops the call (a reader's own stop). */
export function withSignal(options: CallOptions | undefined, signal: AbortSignal | undefined): CallOptions {
  const signals = [options?.signal, signal].filter((s): s is AbortSignal => s !== undefined);
  return { ...options, signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] };
}

export interface Operation<S extends z.ZodType> {
  method: HttpMethod;
  /** The spec's path, encoded (see `path`). */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  safety?: RequestSafety;
  checkHint?: string;
  response: S;
  /** Reads a 2xx body as it arrives; `response` then checks what it returns (see `RequestSpec.readBody`). */
  readBody?: RequestSpec["readBody"];
  /** False for account-wide paths that have no team twin (the teams list). */
  twin?: boolean;
}

/** What every resource shares: the transport, the client's team, and checked calls. */
export class Core {
  constructor(
    readonly transport: Transport,
    readonly teamId: string | undefined,
    /** The deadline of every call that brings none of its own. */
    readonly deadline: number | undefined = undefined,
  ) {}

  async call<S extends z.ZodType>(op: Operation<S>, options?: CallOptions): Promise<z.output<S>> {
    return (await this.exchange(op, options)).body;
  }

  /** Like `call`, also giving the response headers (the server's `date`, for instance). */
  async exchange<S extends z.ZodType>(
    op: Operation<S>,
    options?: CallOptions,
  ): Promise<{ body: z.output<S>; headers: IncomingHttpHeaders }> {
    const teamId = options?.teamId === undefined ? this.teamId : options.teamId;
    const fullPath = op.twin === false ? op.path : twinPath(op.path, teamId);
    try {
      return await this.#exchange(op, fullPath, options);
    } catch (error) {
      // A 2xx means the platform acted: a change whose answer cannot be read may still have been made.
      // Not the API (a web page): the platform never saw the request, so it acted on nothing.
      if (
        !(error instanceof UnexpectedResponseError) ||
        error instanceof NotTheApiError ||
        op.method === "GET"
      )
        throw error;
      const check = op.checkHint ? `Check ${op.checkHint}` : "Check whether it took effect";
      throw new UnexpectedResponseError(
        `${error.message}. The platform accepted the request, so it may have acted on it (the outcome is unknown). ${check} before trying again.`,
        { ...error, outcomeUnknown: true, cause: error },
      );
    }
  }

  async #exchange<S extends z.ZodType>(
    op: Operation<S>,
    fullPath: string,
    options: CallOptions | undefined,
  ): Promise<{ body: z.output<S>; headers: IncomingHttpHeaders }> {
    let { query, body: sent } = op;
    if (options?.beforeSend) {
      // The request goes as it was asked, whatever the caller changes while this runs.
      ({ query, sent } = structuredClone({ query, sent }));
      await options.beforeSend();
    }
    const response = await this.transport.send({
      method: op.method,
      path: fullPath,
      query,
      body: sent,
      safety: op.safety,
      checkHint: op.checkHint,
      signal: options?.signal,
      deadline: options?.deadline ?? this.deadline,
      urgent: options?.urgent,
      readBody: op.readBody,
    });
    const body = parseResponse(op.response, response.body ?? {}, {
      method: op.method,
      path: fullPath,
      status: response.status,
    });
    return { body, headers: response.headers };
  }

  /**
   * Polls `read` until `conclude` says the work has concluded, within the wait's deadline and
   * signal, slowing down when the rate-limit budget runs low.
   */
  waitUntil<T>(
    what: string,
    at: string,
    read: (options: CallOptions) => Promise<T>,
    conclude: (resource: T) => Conclusion,
    options: WaitOptions<T> & CallOptions = {},
  ): Promise<T> {
    return pollUntilConcluded(
      {
        what,
        read: (deadline, signal) => read({ teamId: options.teamId, deadline, signal }),
        conclude,
        rateLimit: this.transport.rateLimit,
        clock: this.transport.clock,
        where: { method: "GET", path: at },
        warn: this.transport.warn,
      },
      options,
    );
  }

  /**
   * A guard for one walk over the pages of the list at `at` (see `PageWalk`), warning as the client
   * does, or throwing when the call asks for the whole list.
   */
  walk(at: string, options?: CallOptions): PageWalk {
    return new PageWalk(`GET ${at}`, this.transport.warn, options?.wholeList === true);
  }

  /** Validates a body or query against a strict request schema; throws before anything is sent. */
  check<S extends z.ZodType>(
    schema: S,
    value: unknown,
    method: HttpMethod,
    at: string,
    part: "body" | "query" | "path",
  ): z.output<S> {
    return validateRequest(schema, value, { method, path: at, part });
  }
}
