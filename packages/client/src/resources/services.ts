import type { CallOptions, Core } from "../core/core.js";
import { path } from "../core/path.js";
import {
  type RestartHarnessQuery,
  restartHarnessQuery,
  type Service,
  serviceResponse,
} from "../schemas/builds.js";
import { emptyData } from "../schemas/shared.js";
import { parseTimestamp } from "../timestamps.js";
import { AbortedError, ConnectionError, TimeoutError } from "../transport/errors.js";
import { type RestartReceipt, restartConclusion } from "../waiting/conclusions.js";
import type { WaitOptions } from "../waiting/poll.js";

/**
 * How far the platform's `Date` header may stand from this machine's clock and still time a
 * restart. A `Date` further off (a proxy's cached answer, a clock days behind) is not believed:
 * the restart is timed by this machine's clock, and by the deployment's own transition times.
 */
export const RESTART_CLOCK_TOLERANCE_MS = 60_000;

/** The platform's clock from a response's `Date`, or undefined without one. */
function serverTime(headers: Record<string, unknown>): number | undefined {
  const date = Date.parse(String(headers.date ?? ""));
  return Number.isNaN(date) ? undefined : date;
}

export class Services {
  constructor(private readonly core: Core) {}

  /** A service with its build and deployment status. */
  async get(projectId: string, serviceId: string, options?: CallOptions): Promise<Service> {
    return (
      await this.core.call(
        {
          method: "GET",
          path: path`/v1/projects/${projectId}/services/${serviceId}`,
          response: serviceResponse,
        },
        options,
      )
    ).data;
  }

  /**
   * Restarts a service. Not repeated after an ambiguous failure (a second restart is a second
   * rollout). The service is read first, so that its previous rollout cannot pass for the new one
   * whatever either clock says; a read that fails leaves the timing to the clocks.
   */
  async restart(projectId: string, serviceId: string, options?: CallOptions): Promise<RestartReceipt> {
    const at = path`/v1/projects/${projectId}/services/${serviceId}/restart`;
    // The rollout before the restart, where the platform can tell it; a platform that cannot be
    // reached at all cannot be restarted either, and trying the restart too would double the wait.
    const before = await this.get(projectId, serviceId, { ...options, beforeSend: undefined }).catch(
      (error: unknown) => {
        if (error instanceof AbortedError || unreached(error)) throw error;
        return undefined;
      },
    );
    const previousTransition = parseTimestamp(before?.status?.deployment?.lastTransitionTime);
    const sent = this.core.transport.clock.now();
    const { headers } = await this.core.exchange(
      {
        method: "POST",
        path: at,
        safety: "start-work",
        checkHint: `the service's deployment status (GET ${path`/v1/projects/${projectId}/services/${serviceId}`})`,
        response: emptyData,
      },
      options,
    );
    // The Date header has whole seconds; start at the second it names so a fast rollout still counts.
    const second = (ms: number) => Math.floor(ms / 1000) * 1000;
    const platform = serverTime(headers);
    const believed =
      platform !== undefined && Math.abs(platform - sent) <= RESTART_CLOCK_TOLERANCE_MS ? platform : sent;
    return { restartedAt: second(platform ?? sent), previousTransition, notBefore: second(believed) };
  }

  /** Waits until the deployment reports COMPLETED (or FAILED) with a transition after the restart. */
  waitForRestart(
    projectId: string,
    serviceId: string,
    receipt: RestartReceipt,
    options: WaitOptions<Service> & CallOptions = {},
  ): Promise<Service> {
    const at = path`/v1/projects/${projectId}/services/${serviceId}`;
    return this.core.waitUntil(
      `restart of service ${serviceId}`,
      at,
      (o) => this.get(projectId, serviceId, o),
      (service) => restartConclusion(service, receipt),
      options,
    );
  }
}

export class Harnesses {
  constructor(private readonly core: Core) {}

  async restart(
    projectId: string,
    harnessId: string,
    query: RestartHarnessQuery = {},
    options?: CallOptions,
  ): Promise<void> {
    const at = path`/v1/projects/${projectId}/harnesses/${harnessId}/restart`;
    const q = this.core.check(restartHarnessQuery, query, "POST", at, "query");
    await this.core.call(
      { method: "POST", path: at, query: q, safety: "start-work", response: emptyData },
      options,
    );
  }
}

/** No answer came: the connection failed or was never made, or nothing came in time. */
const unreached = (error: unknown) => error instanceof ConnectionError || error instanceof TimeoutError;
