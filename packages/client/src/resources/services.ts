import type { CallOptions, Core } from "../core/core.js";
import { path } from "../core/path.js";
import {
  type RestartHarnessQuery,
  restartHarnessQuery,
  type Service,
  serviceResponse,
} from "../schemas/builds.js";
import { emptyData } from "../schemas/shared.js";
import { restartConclusion } from "../waiting/conclusions.js";
import type { WaitOptions } from "../waiting/poll.js";

export interface RestartReceipt {
  /** When the platform took the restart (its `Date` header, else this machine's clock), epoch ms. */
  restartedAt: number;
}

/** Reads the platform's clock from a response, so restart checks do not depend on ours. */
function serverTime(headers: Record<string, unknown>, fallback: number): number {
  const date = Date.parse(String(headers.date ?? ""));
  return Number.isNaN(date) ? fallback : date;
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

  /** Restarts a service. Not repeated after an ambiguous failure (a second restart is a second rollout). */
  async restart(projectId: string, serviceId: string, options?: CallOptions): Promise<RestartReceipt> {
    const at = path`/v1/projects/${projectId}/services/${serviceId}/restart`;
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
    return { restartedAt: Math.floor(serverTime(headers, this.core.transport.clock.now()) / 1000) * 1000 };
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
      (service) => restartConclusion(service, receipt.restartedAt),
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
