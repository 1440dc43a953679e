import { ApiFailure } from "../http.js";
import type { BuildRecord } from "../model/work-records.js";
import type { Service } from "../model/world.js";
import { workLogs } from "../observability/logs.js";
import { newestFirst } from "../paginate.js";
import { type Context, del, findIn, get, post, type Route, requireWrite, visibleProject } from "../router.js";
import { buildLogQuery } from "../rules/observability.js";
import { buildArgumentsQuery, needsGitRef, restartHarnessQuery, startBuildBody } from "../rules/work.js";
import { checkBody, checkQuery } from "../validate.js";
import { abortBuild, buildView, startBuild } from "../work/builds.js";
import { restartService } from "../work/restarts.js";

// Services, builds and harnesses: spec 2.6, 4.5 and the build and service reads of
// beyond-the-seed §1.

function service(ctx: Context): Service {
  const project = visibleProject(ctx);
  return findIn(ctx.world.services, project.id, ctx.params.serviceId, "service");
}

function buildOf(ctx: Context, s: Service, buildId = ctx.params.buildId): BuildRecord {
  const record = ctx.world.builds.find(
    (b) => b.projectId === s.projectId && b.serviceId === s.id && b.id === buildId,
  );
  if (!record) throw new ApiFailure(404, `build ${buildId} of service ${s.id} not found`);
  return record;
}

function serviceView(ctx: Context, s: Service) {
  const latest = ctx.world.builds.filter((b) => b.projectId === s.projectId && b.serviceId === s.id).at(-1);
  const deployment = s.deployment.at(ctx.now);
  const build = latest ? latest.timeline.stepAt(ctx.now) : undefined;
  return {
    id: s.id,
    uid: s.uid,
    name: s.name,
    kind: s.kind,
    status: {
      build: build
        ? { status: build.state.status, lastTransitionTime: new Date(build.at).toISOString() }
        : null,
      deployment:
        s.kind === "build"
          ? null
          : { ...deployment, lastTransitionTime: new Date(deployment.lastTransitionTime).toISOString() },
    },
  };
}

/** The build arguments a service sees: its own, and those inherited from the project's groups. */
function buildArguments(ctx: Context, s: Service, show: string, replace: boolean) {
  const inherited: Record<string, string> = {};
  for (const secret of ctx.world.secrets) {
    if (secret.projectId !== s.projectId || secret.secretType === "environment") continue;
    for (const key of Object.keys(secret.secrets?.variables ?? {})) inherited[key] = "********";
  }
  const own = Object.fromEntries(
    Object.entries(s.buildArguments).map(([k, v]) => [
      k,
      replace ? v.replace(/\$\{refs\.([\w-]+)\.host\}/g, `$1.${s.projectId}.svc.cluster.local`) : v,
    ]),
  );
  const args = show === "this" ? own : show === "inherited" ? inherited : { ...inherited, ...own };
  return { buildArguments: args, buildFiles: {} };
}

export const serviceRoutes: Route[] = [
  get("/v1/projects/:projectId/services/:serviceId", (ctx) => ({ data: serviceView(ctx, service(ctx)) })),
  post("/v1/projects/:projectId/services/:serviceId/build", (ctx) => {
    const s = service(ctx);
    requireWrite(ctx, "Project > Services > General > Update");
    const body = checkBody(startBuildBody, ctx.body);
    if (s.kind === "deployment")
      throw new ApiFailure(
        409,
        `service ${s.id} is a deployment service: only build and combined services build`,
      );
    if (needsGitRef(body, s.kind))
      throw new ApiFailure(400, "invalid request body", {
        "body.branch": [`service ${s.id} is a build service: give branch or pullRequestId`],
      });
    const record = startBuild(ctx.world, s, body, ctx.now, ctx.outcomes.take("build", s.outcomes));
    return { data: buildView(record, ctx.now) };
  }),
  get("/v1/projects/:projectId/services/:serviceId/build", (ctx) => {
    const s = service(ctx);
    const { items, pagination } = newestFirst(
      ctx.world.builds.filter((b) => b.projectId === s.projectId && b.serviceId === s.id),
      (b) => buildView(b, ctx.now),
      ctx.query,
      ctx.settings.pageShape,
    );
    return { data: { builds: items }, pagination };
  }),
  get("/v1/projects/:projectId/services/:serviceId/build/:buildId", (ctx) => ({
    data: buildView(buildOf(ctx, service(ctx)), ctx.now),
  })),
  del("/v1/projects/:projectId/services/:serviceId/build/:buildId", (ctx) => {
    const record = buildOf(ctx, service(ctx));
    requireWrite(ctx, "Project > Services > General > Update");
    if (!abortBuild(record, ctx.now)) throw new ApiFailure(409, `build ${record.id} has already concluded`);
    return { data: {} };
  }),
  get("/v1/projects/:projectId/services/:serviceId/build-logs", (ctx) => {
    const s = service(ctx);
    const q = checkQuery(buildLogQuery, ctx.query);
    const record = buildOf(ctx, s, q.buildId);
    return workLogs(record.logs, { ...q, pageCap: ctx.settings.logPageCap }, ctx.now, record.createdAt);
  }),
  get("/v1/projects/:projectId/services/:serviceId/build-arguments", (ctx) => {
    const s = service(ctx);
    const q = checkQuery(buildArgumentsQuery, ctx.query);
    return { data: buildArguments(ctx, s, q.show ?? "all", q.replaceTemplatedValues ?? false) };
  }),
  post("/v1/projects/:projectId/services/:serviceId/restart", (ctx) => {
    const s = service(ctx);
    requireWrite(ctx, "Project > Services > General > Update");
    if (s.kind === "build")
      throw new ApiFailure(409, `service ${s.id} is a build service: it has no deployment to restart`);
    restartService(s, ctx.now, ctx.outcomes.take("restart", s.outcomes));
    return { data: {} };
  }),
  post("/v1/projects/:projectId/harnesses/:harnessId/restart", (ctx) => {
    const project = visibleProject(ctx);
    const harness = findIn(ctx.world.harnesses, project.id, ctx.params.harnessId, "harness");
    requireWrite(ctx, "Project > Harnesses > General > Update");
    const q = checkQuery(restartHarnessQuery, ctx.query);
    if (harness.activeSessions > 0 && !q.acknowledgeActiveSessions)
      throw new ApiFailure(
        409,
        `harness ${harness.id} has ${harness.activeSessions} active session(s): set acknowledgeActiveSessions=true to restart anyway`,
      );
    harness.activeSessions = 0;
    return { data: {} };
  }),
];
