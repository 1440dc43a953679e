import { ApiFailure } from "../http.js";
import { containersOf } from "../observability/containers.js";
import { containerLogs } from "../observability/logs.js";
import { ADDON_METRICS, metrics, SERVICE_METRICS } from "../observability/metrics.js";
import { actingTeam, findIn, get, type Route, visibleProject } from "../router.js";
import {
  addonMetricsQuery,
  containerLogQuery,
  logQuery,
  serviceMetricsQuery,
} from "../rules/observability.js";
import { checkQuery } from "../validate.js";

// Logs and metrics of services, addons and any container (spec 2.12, 4.7; service logs of
// beyond-the-seed §1).

export const observabilityRoutes: Route[] = [
  get("/v1/projects/:projectId/services/:serviceId/logs", (ctx) => {
    const project = visibleProject(ctx);
    const service = findIn(ctx.world.services, project.id, ctx.params.serviceId, "service");
    const q = checkQuery(logQuery, ctx.query);
    const containers = containersOf(ctx.world, project).filter(
      (c) => c.owner.kind === "service" && c.owner.id === service.id,
    );
    return containerLogs(containers, { ...q, pageCap: ctx.settings.logPageCap }, ctx.now);
  }),
  get("/v1/logs", (ctx) => {
    const q = checkQuery(containerLogQuery, ctx.query);
    const team = actingTeam(ctx);
    const projects = q.projectId
      ? [visibleProject(ctx, q.projectId)]
      : ctx.world.projects.filter((p) => team === undefined || p.teamId === team);
    const containers = projects
      .flatMap((p) => containersOf(ctx.world, p))
      .filter(
        (c) =>
          (q.containerName === undefined || c.name === q.containerName) &&
          (q.podName === undefined || c.podName === q.podName) &&
          (q.clusterId === undefined || c.clusterId === q.clusterId),
      );
    return containerLogs(containers, { ...q, pageCap: ctx.settings.logPageCap }, ctx.now);
  }),
  get("/v1/projects/:projectId/services/:serviceId/metrics", (ctx) => {
    const project = visibleProject(ctx);
    const service = findIn(ctx.world.services, project.id, ctx.params.serviceId, "service");
    const q = checkQuery(serviceMetricsQuery, ctx.query);
    const containers = containersOf(ctx.world, project).filter(
      (c) =>
        c.owner.kind === "service" &&
        c.owner.id === service.id &&
        (q.containerName === undefined || c.name === q.containerName) &&
        (q.deploymentId === undefined || c.deploymentId === q.deploymentId),
    );
    if (service.kind === "build")
      throw new ApiFailure(409, `service ${service.id} is a build service: it has no deployment`);
    return metrics(containers, SERVICE_METRICS, q, ctx.now);
  }),
  get("/v1/projects/:projectId/addons/:addonId/metrics", (ctx) => {
    const project = visibleProject(ctx);
    const addon = findIn(ctx.world.addons, project.id, ctx.params.addonId, "addon");
    const q = checkQuery(addonMetricsQuery, ctx.query);
    const containers = containersOf(ctx.world, project).filter(
      (c) =>
        c.owner.kind === "addon" &&
        c.owner.id === addon.id &&
        (q.containerName === undefined || c.name === q.containerName),
    );
    return metrics(containers, ADDON_METRICS, q, ctx.now);
  }),
];
