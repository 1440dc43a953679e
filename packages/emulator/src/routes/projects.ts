import { ApiFailure } from "../http.js";
import { paginate } from "../paginate.js";
import { actingTeam, get, type Route, visibleProject } from "../router.js";

// Teams (for billing filters), projects and pipelines: spec 4.1 (identifiers) and 4.2.

export const projectRoutes: Route[] = [
  get("/v1/teams", (ctx) => {
    const team = actingTeam(ctx);
    const teams = ctx.world.teams.filter((t) => team === undefined || t.id === team);
    const { items, pagination } = paginate(
      teams.map(({ id, uid, name }) => ({ id, uid, name })),
      ctx.query,
      ctx.settings.pageShape,
    );
    return { data: { teams: items }, pagination };
  }),
  get("/v1/projects", (ctx) => {
    const team = actingTeam(ctx);
    const projects = ctx.world.projects.filter((p) => team === undefined || p.teamId === team);
    const { items, pagination } = paginate(
      projects.map(({ id, uid, name, description }) => ({ id, uid, name, description })),
      ctx.query,
      ctx.settings.pageShape,
    );
    return { data: { projects: items }, pagination };
  }),
  get("/v1/projects/:projectId/pipelines/:pipelineId", (ctx) => {
    const project = visibleProject(ctx);
    if (ctx.params.pipelineId !== "main")
      throw new ApiFailure(404, `pipeline ${ctx.params.pipelineId} not found`);
    return {
      data: {
        name: "main",
        description: `Promotion of ${project.name}`,
        preview: { enabled: false },
        stages: [{ name: "Development" }, { name: "Staging" }, { name: "Production" }],
        nfObjects: ctx.world.services
          .filter((s) => s.projectId === project.id && s.kind !== "build")
          .map((s) => ({ id: s.id, type: "service", stage: "Production" })),
        createdAt: new Date(ctx.world.seededAt - 365 * 86_400_000).toISOString(),
      },
    };
  }),
];
