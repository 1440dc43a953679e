import { ApiFailure } from "./http.js";
import type { Project, Token, World } from "./model/world.js";
import type { Settings } from "./settings.js";
import type { Outcomes } from "./work/outcomes.js";

// Routes are written as the spec writes paths (`/v1/projects/:projectId`); the server strips the
// `/v1/teams/{teamId}` twin prefix first, so every route serves both forms.

export interface Context {
  world: World;
  now: number;
  token: Token;
  /** The team of the `/v1/teams/{teamId}/` twin, if the path used it. */
  twinTeamId: string | undefined;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  outcomes: Outcomes;
  settings: Readonly<Settings>;
}

export interface Route {
  method: "GET" | "POST" | "DELETE";
  pattern: string;
  handler: (ctx: Context) => unknown;
}

export const get = (pattern: string, handler: Route["handler"]): Route => ({
  method: "GET",
  pattern,
  handler,
});
export const post = (pattern: string, handler: Route["handler"]): Route => ({
  method: "POST",
  pattern,
  handler,
});
export const del = (pattern: string, handler: Route["handler"]): Route => ({
  method: "DELETE",
  pattern,
  handler,
});

/** The route's parameters when `path` matches its pattern. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const value = got[i] ?? "";
    if (part.startsWith(":")) {
      if (value === "") return undefined;
      try {
        params[part.slice(1)] = decodeURIComponent(value);
      } catch {
        throw new ApiFailure(400, `path segment ${JSON.stringify(value)} is not valid percent-encoding`);
      }
    } else if (part !== value) return undefined;
  }
  return params;
}

/** The team a request acts for: the token's own team, else the twin's, else none (organisation). */
export function actingTeam(ctx: Context): string | undefined {
  if (ctx.twinTeamId !== undefined && !ctx.world.teams.some((t) => t.id === ctx.twinTeamId))
    throw new ApiFailure(404, `team ${ctx.twinTeamId} not found`);
  if (ctx.token.teamId && ctx.twinTeamId && ctx.twinTeamId !== ctx.token.teamId)
    throw new ApiFailure(403, "the token is limited to another team");
  return ctx.token.teamId ?? ctx.twinTeamId;
}

/** Writes need a token with write permissions (spec section 4 lists one per operation). */
export function requireWrite(ctx: Context, permission: string): void {
  if (!ctx.token.canWrite) throw new ApiFailure(403, `the token lacks the permission ${permission}`);
}

/** A project the caller can see; 404 for one that does not exist or belongs to another team. */
export function visibleProject(ctx: Context, projectId = ctx.params.projectId): Project {
  const team = actingTeam(ctx);
  const project = ctx.world.projects.find(
    (p) => p.id === projectId && (team === undefined || p.teamId === team),
  );
  if (!project) throw new ApiFailure(404, `project ${projectId} not found`);
  return project;
}

/** One item of a project, or 404 naming what was looked for. */
export function findIn<T extends { projectId: string; id: string }>(
  list: readonly T[],
  projectId: string,
  id: string | undefined,
  what: string,
): T {
  const item = list.find((x) => x.projectId === projectId && x.id === id);
  if (!item) throw new ApiFailure(404, `${what} ${id} not found in project ${projectId}`);
  return item;
}
