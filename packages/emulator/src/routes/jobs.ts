import { ApiFailure } from "../http.js";
import type { Job } from "../model/world.js";
import { workLogs } from "../observability/logs.js";
import { newestFirst } from "../paginate.js";
import { type Context, del, findIn, get, post, type Route, requireWrite, visibleProject } from "../router.js";
import { jobLogQuery } from "../rules/observability.js";
import { resumeJobBody, runJobBody, setRuntimeEnvironmentBody } from "../rules/work.js";
import { checkBody, checkQuery } from "../validate.js";
import { abortJobRun, jobRunView, startJobRun } from "../work/job-runs.js";

// Jobs (spec 2.4, 4.4) and the job-run reads, abort and logs of beyond-the-seed §1.

function job(ctx: Context): Job {
  const project = visibleProject(ctx);
  return findIn(ctx.world.jobs, project.id, ctx.params.jobId, "job");
}

function run(ctx: Context, runId = ctx.params.runId) {
  const j = job(ctx);
  const record = ctx.world.jobRuns.find(
    (r) => r.projectId === j.projectId && r.jobId === j.id && r.id === runId,
  );
  if (!record) throw new ApiFailure(404, `run ${runId} of job ${j.id} not found`);
  return record;
}

/** A built commit to run must come from a build or combined service of the project (variant A). */
function checkBuildSource(ctx: Context, j: Job, id: string | undefined): void {
  if (id === undefined || id.includes("/")) return;
  const ok = ctx.world.services.some(
    (s) => s.projectId === j.projectId && s.id === id && s.kind !== "deployment",
  );
  if (!ok)
    throw new ApiFailure(400, "invalid request body", {
      "body.deployment.internal.id": [`no build service ${id} in project ${j.projectId}`],
    });
}

/** A job's health checks as the spec's example shows them (HTTP and TCP probes). */
const healthChecks = [
  {
    protocol: "HTTP",
    type: "livenessProbe",
    path: "/health",
    httpPort: 8080,
    initialDelaySeconds: 5,
    periodSeconds: 10,
    timeoutSeconds: 2,
    failureThreshold: 3,
    successThreshold: 1,
  },
  {
    protocol: "TCP",
    type: "readinessProbe",
    path: null,
    tcpSocketPort: 8080,
    initialDelaySeconds: 1,
    periodSeconds: 5,
    timeoutSeconds: 1,
    failureThreshold: 3,
    successThreshold: 1,
  },
];

export const jobRoutes: Route[] = [
  post("/v1/projects/:projectId/jobs/:jobId/runs", (ctx) => {
    const j = job(ctx);
    requireWrite(ctx, "Project > Jobs > General > Run Job");
    const body = checkBody(runJobBody, ctx.body);
    checkBuildSource(ctx, j, body.deployment?.internal?.id);
    const record = startJobRun(ctx.world, j, body, ctx.now, ctx.outcomes.take("jobRun", j.outcomes));
    return { data: { id: record.id, runName: record.runName } };
  }),
  get("/v1/projects/:projectId/jobs/:jobId/runs", (ctx) => {
    const j = job(ctx);
    const { items, pagination } = newestFirst(
      ctx.world.jobRuns.filter((r) => r.projectId === j.projectId && r.jobId === j.id),
      (r) => jobRunView(r, ctx.now),
      ctx.query,
      ctx.settings.pageShape,
    );
    return { data: { runs: items }, pagination };
  }),
  get("/v1/projects/:projectId/jobs/:jobId/runs/:runId", (ctx) => ({ data: jobRunView(run(ctx), ctx.now) })),
  del("/v1/projects/:projectId/jobs/:jobId/runs/:runId", (ctx) => {
    const record = run(ctx);
    requireWrite(ctx, "Project > Jobs > General > Run Job");
    if (!abortJobRun(record, ctx.now)) throw new ApiFailure(409, `run ${record.id} has already concluded`);
    return { data: {} };
  }),
  get("/v1/projects/:projectId/jobs/:jobId/logs", (ctx) => {
    const j = job(ctx);
    const q = checkQuery(jobLogQuery, ctx.query);
    const runs = ctx.world.jobRuns.filter(
      (r) => r.projectId === j.projectId && r.jobId === j.id && (q.runId === undefined || r.id === q.runId),
    );
    if (q.runId !== undefined && runs.length === 0)
      throw new ApiFailure(404, `run ${q.runId} of job ${j.id} not found`);
    const since = Math.min(ctx.now, ...runs.map((r) => r.startedAt));
    return workLogs(
      runs.flatMap((r) => r.logs),
      { ...q, pageCap: ctx.settings.logPageCap },
      ctx.now,
      since,
    );
  }),
  post("/v1/projects/:projectId/jobs/:jobId/resume", (ctx) => {
    const j = job(ctx);
    requireWrite(ctx, "Project > Jobs > General > Update");
    const body = checkBody(resumeJobBody, ctx.body);
    if (!j.paused) throw new ApiFailure(409, `job ${j.id} is not paused`);
    j.paused = false;
    j.settings = {
      suspended: body.suspended ?? false,
      disabledCI: body.disabledCI ?? j.settings.disabledCI,
      disabledCD: body.disabledCD ?? j.settings.disabledCD,
    };
    return { data: {} };
  }),
  post("/v1/projects/:projectId/jobs/:jobId/runtime-environment", (ctx) => {
    const j = job(ctx);
    requireWrite(ctx, "Project > Secrets > Jobs > Update");
    const body = checkBody(setRuntimeEnvironmentBody, ctx.body);
    j.runtimeEnvironment = { ...body.runtimeEnvironment };
    return { data: {} };
  }),
  get("/v1/projects/:projectId/jobs/:jobId/health-checks", (ctx) => {
    job(ctx);
    return { data: { healthChecks } };
  }),
];
