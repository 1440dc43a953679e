import type { z } from "zod";
import type { CallOptions } from "./core/core.js";
import { Core } from "./core/core.js";
import type { PageWalk } from "./core/page-walk.js";
import { Addons } from "./resources/addons.js";
import { Billing } from "./resources/billing.js";
import { Builds } from "./resources/builds.js";
import { Integrations } from "./resources/integrations.js";
import { Jobs } from "./resources/jobs.js";
import { Networking } from "./resources/networking.js";
import { Observability } from "./resources/observability.js";
import { Projects } from "./resources/projects.js";
import { Secrets } from "./resources/secrets.js";
import { Harnesses, Services } from "./resources/services.js";
import { Teams } from "./resources/teams.js";
import { Templates } from "./resources/templates.js";
import { looseBody } from "./schemas/shared.js";
import type { RateLimitState } from "./transport/rate-limit.js";
import {
  type HttpMethod,
  type QueryValue,
  type RequestSafety,
  Transport,
  type TransportOptions,
} from "./transport/transport.js";

export interface ClientOptions extends TransportOptions {
  /** Send every request to the `/v1/teams/{teamId}/` twin (a call's own `teamId` overrides it). */
  teamId?: string | undefined;
  /**
   * Epoch ms: the deadline of every call that brings none of its own (a CI step's timeout). No
   * attempt, retry, wait or response body goes past it.
   */
  deadline?: number | undefined;
}

export interface RawRequest extends CallOptions {
  method: HttpMethod;
  /** As the spec writes it (`/v1/projects`); with a team the twin is sent. Encode values yourself. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Default: idempotent for GET, PUT, DELETE; start-work (never repeated after an ambiguous failure) otherwise. */
  safety?: RequestSafety;
}

export class CwpClient {
  readonly teams: Teams;
  readonly projects: Projects;
  readonly billing: Billing;
  readonly secrets: Secrets;
  readonly jobs: Jobs;
  readonly builds: Builds;
  readonly services: Services;
  readonly harnesses: Harnesses;
  readonly addons: Addons;
  readonly observability: Observability;
  readonly templates: Templates;
  readonly networking: Networking;
  readonly integrations: Integrations;
  readonly #core: Core;

  constructor(options: ClientOptions) {
    this.#core = new Core(new Transport(options), options.teamId, options.deadline);
    this.teams = new Teams(this.#core);
    this.projects = new Projects(this.#core);
    this.billing = new Billing(this.#core);
    this.secrets = new Secrets(this.#core);
    this.jobs = new Jobs(this.#core);
    this.builds = new Builds(this.#core);
    this.services = new Services(this.#core);
    this.harnesses = new Harnesses(this.#core);
    this.addons = new Addons(this.#core);
    this.observability = new Observability(this.#core);
    this.templates = new Templates(this.#core);
    this.networking = new Networking(this.#core);
    this.integrations = new Integrations(this.#core);
  }

  /**
   * A guard for one walk over the pages of the list at `at` (the spec's path), for `cursorPages`:
   * it ends the walk with a warning (`onWarning`) on a cursor handed out before, a page repeated,
   * or past MAX_PAGES pages; with `wholeList`, it throws IncompleteListError instead.
   */
  pageWalk(at: string, options?: Pick<CallOptions, "wholeList">): PageWalk {
    return this.#core.walk(at, options);
  }

  /** The account's request budget as last reported by the platform. */
  get rateLimit(): RateLimitState {
    return this.#core.transport.rateLimit.state;
  }

  /**
   * Any operation, through the same transport, retries, rate limiting and errors. Resolves to the
   * parsed body (`{ data, pagination? }`).
   */
  request<T = { data: unknown; pagination?: unknown }>(req: RawRequest): Promise<T> {
    const { method, path, query, body, safety, ...options } = req;
    return this.#core.call(
      { method, path, query, body, safety, response: looseBody as unknown as z.ZodType<T> },
      options,
    );
  }

  /** Closes idle connections; call when done so a short-lived process can exit at once. */
  close(): Promise<void> {
    return this.#core.transport.close();
  }
}

export function createClient(options: ClientOptions): CwpClient {
  return new CwpClient(options);
}
