import { type CallOptions, type Core, withSignal } from "../core/core.js";
import { iterateItems, type Page } from "../core/pagination.js";
import { path } from "../core/path.js";
import { LogFollower, type LogFollowerOptions } from "../logs/follower.js";
import {
  healthChecksResponse,
  type JobRun,
  jobRunListResponse,
  jobRunResponse,
  type ResumeJobBody,
  type RunJobBody,
  resumeJobBody,
  runJobBody,
  runJobResponse,
  type SetRuntimeEnvironmentBody,
  type StartedJobRun,
  setRuntimeEnvironmentBody,
} from "../schemas/jobs.js";
import { type JobLogQuery, jobLogQuery, type LogLine, logsResponse } from "../schemas/observability.js";
import { type CursorListQuery, cursorListQuery, emptyData } from "../schemas/shared.js";
import { jobRunConclusion } from "../waiting/conclusions.js";
import { durationsOf, HISTORY_SIZE, type HistoryOptions } from "../waiting/history.js";
import type { WaitOptions } from "../waiting/poll.js";

export class Jobs {
  constructor(private readonly core: Core) {}

  /** Starts a job run. Never sent twice: after an ambiguous failure the error says the outcome is unknown. */
  async run(
    projectId: string,
    jobId: string,
    body: RunJobBody = {},
    options?: CallOptions,
  ): Promise<StartedJobRun> {
    const at = path`/v1/projects/${projectId}/jobs/${jobId}/runs`;
    const checked = this.core.check(runJobBody, body, "POST", at, "body");
    const res = await this.core.call(
      {
        method: "POST",
        path: at,
        body: checked,
        safety: "start-work",
        checkHint: `the job's runs (GET ${at})`,
        response: runJobResponse,
      },
      options,
    );
    return res.data;
  }

  async getRun(projectId: string, jobId: string, runId: string, options?: CallOptions): Promise<JobRun> {
    const at = path`/v1/projects/${projectId}/jobs/${jobId}/runs/${runId}`;
    return (await this.core.call({ method: "GET", path: at, response: jobRunResponse }, options)).data;
  }

  async listRuns(
    projectId: string,
    jobId: string,
    query: CursorListQuery = {},
    options?: CallOptions,
  ): Promise<Page<JobRun>> {
    const at = path`/v1/projects/${projectId}/jobs/${jobId}/runs`;
    const q = this.core.check(cursorListQuery, query, "GET", at, "query");
    const res = await this.core.call(
      { method: "GET", path: at, query: q, response: jobRunListResponse },
      options,
    );
    return { items: res.data.runs, pagination: res.pagination };
  }

  /**
   * How long the job's latest successful runs took, ms, from one request: pass them to
   * `waitForRun` as `expectedDurationsMs` so its polls gather where this job's runs end.
   */
  async recentDurations(projectId: string, jobId: string, options: HistoryOptions = {}): Promise<number[]> {
    const { except, ...call } = options;
    const { items } = await this.listRuns(projectId, jobId, { per_page: HISTORY_SIZE }, call);
    return durationsOf(
      items.filter((r) => r.id !== except),
      (r) => ({ start: r.startedAt, end: r.concludedAt }),
      (r) => r.concluded === true && r.status === "SUCCESS",
    );
  }

  iterateRuns(
    projectId: string,
    jobId: string,
    query: CursorListQuery = {},
    options?: CallOptions,
  ): AsyncGenerator<JobRun> {
    return iterateItems(
      (q) => this.listRuns(projectId, jobId, q, options),
      query,
      this.core.walk(path`/v1/projects/${projectId}/jobs/${jobId}/runs`, options),
    );
  }

  /** Aborts a run; it then ends FAILED with `concluded: true`. */
  async abortRun(projectId: string, jobId: string, runId: string, options?: CallOptions): Promise<void> {
    const at = path`/v1/projects/${projectId}/jobs/${jobId}/runs/${runId}`;
    await this.core.call({ method: "DELETE", path: at, response: emptyData }, options);
  }

  /** Resumes a paused job; a job that is not paused gives a ConflictError (409). */
  async resume(
    projectId: string,
    jobId: string,
    body: ResumeJobBody = {},
    options?: CallOptions,
  ): Promise<void> {
    const at = path`/v1/projects/${projectId}/jobs/${jobId}/resume`;
    const checked = this.core.check(resumeJobBody, body, "POST", at, "body");
    await this.core.call(
      { method: "POST", path: at, body: checked, safety: "idempotent", response: emptyData },
      options,
    );
  }

  /** Deprecated by the platform (use the job update): replaces the job's runtime environment. */
  async setRuntimeEnvironment(
    projectId: string,
    jobId: string,
    body: SetRuntimeEnvironmentBody,
    options?: CallOptions,
  ): Promise<void> {
    const at = path`/v1/projects/${projectId}/jobs/${jobId}/runtime-environment`;
    const checked = this.core.check(setRuntimeEnvironmentBody, body, "POST", at, "body");
    await this.core.call(
      { method: "POST", path: at, body: checked, safety: "idempotent", response: emptyData },
      options,
    );
  }

  /** Deprecated by the platform (use the job read). */
  async getHealthChecks(projectId: string, jobId: string, options?: CallOptions) {
    const at = path`/v1/projects/${projectId}/jobs/${jobId}/health-checks`;
    return (await this.core.call({ method: "GET", path: at, response: healthChecksResponse }, options)).data
      .healthChecks;
  }

  async logs(
    projectId: string,
    jobId: string,
    query: JobLogQuery = {},
    options?: CallOptions,
  ): Promise<LogLine[]> {
    const at = path`/v1/projects/${projectId}/jobs/${jobId}/logs`;
    const q = this.core.check(jobLogQuery, query, "GET", at, "query");
    return (await this.core.call({ method: "GET", path: at, query: q, response: logsResponse }, options))
      .data;
  }

  /** Follows a run's logs forward; call `next()` while waiting and once more after it concludes. */
  followRunLogs(
    projectId: string,
    jobId: string,
    runId: string,
    follow: LogFollowerOptions,
    options?: CallOptions,
  ): LogFollower {
    return new LogFollower(
      (query, signal) => this.logs(projectId, jobId, { ...query, runId }, withSignal(options, signal)),
      follow,
      this.core.transport,
    );
  }

  /** Polls the run until `concluded`; resolves to the final run, successful or not. */
  waitForRun(
    projectId: string,
    jobId: string,
    runId: string,
    options: WaitOptions<JobRun> & CallOptions = {},
  ): Promise<JobRun> {
    const at = path`/v1/projects/${projectId}/jobs/${jobId}/runs/${runId}`;
    return this.core.waitUntil(
      `job run ${runId}`,
      at,
      (o) => this.getRun(projectId, jobId, runId, o),
      jobRunConclusion,
      options,
    );
  }
}
