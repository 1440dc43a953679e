import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { cursorListQuery, issuesToDetails } from "@cwp/client";
import { VirtualClock } from "./clock.js";
import { ApiFailure, readJsonBody, sendFailure, sendJson } from "./http.js";
import { RateLimiter } from "./rate-limit.js";
import { seedWorld, type Token, type World } from "./world.js";

export interface EmulatorOptions {
  host?: string;
  port?: number;
  seed?: number;
  /** Virtual seconds per real second. */
  speed?: number;
  /** Requests per account per hour. */
  rateLimit?: number;
}

export interface RunningEmulator {
  url: string;
  close(): Promise<void>;
}

interface RequestLogEntry {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
  time: string;
}

interface Context {
  world: World;
  token: Token;
  /** The team of the `/v1/teams/{teamId}/` twin, if the path used it. */
  teamId: string | undefined;
  query: URLSearchParams;
}

/** Cursor pagination of spec 2.1: `per_page` at most 100 (default 50); the cursor is an offset. */
function paginate<T>(items: T[], query: URLSearchParams) {
  const raw = Object.fromEntries(query);
  const parsed = cursorListQuery.safeParse({
    ...raw,
    ...(raw.per_page !== undefined ? { per_page: Number(raw.per_page) } : {}),
    ...(raw.page !== undefined ? { page: Number(raw.page) } : {}),
  });
  if (!parsed.success)
    throw new ApiFailure(400, "invalid query", issuesToDetails(parsed.error.issues, "query"));
  const size = parsed.data.per_page ?? 50;
  const offset = parsed.data.cursor
    ? Number(Buffer.from(parsed.data.cursor, "base64url").toString())
    : ((parsed.data.page ?? 1) - 1) * size;
  if (!Number.isInteger(offset) || offset < 0)
    throw new ApiFailure(400, "invalid query", { "query.cursor": ["unknown cursor"] });
  const page = items.slice(offset, offset + size);
  const hasNextPage = offset + size < items.length;
  return {
    items: page,
    pagination: {
      hasNextPage,
      count: page.length,
      ...(hasNextPage ? { cursor: Buffer.from(String(offset + size)).toString("base64url") } : {}),
    },
  };
}

/** The team a request acts for: the token's own team, else the twin's, else none (organisation). */
function actingTeam(ctx: Context): string | undefined {
  if (ctx.teamId && !ctx.world.teams.some((t) => t.id === ctx.teamId))
    throw new ApiFailure(404, `team ${ctx.teamId} not found`);
  if (ctx.token.teamId && ctx.teamId && ctx.teamId !== ctx.token.teamId)
    throw new ApiFailure(403, "the token is limited to another team");
  return ctx.token.teamId ?? ctx.teamId;
}

type Handler = (ctx: Context) => unknown;
const routes: Array<{ method: string; path: string; handler: Handler }> = [
  {
    method: "GET",
    path: "/v1/projects",
    handler: (ctx) => {
      const team = actingTeam(ctx);
      const projects = ctx.world.projects.filter((p) => team === undefined || p.teamId === team);
      const { items, pagination } = paginate(
        projects.map(({ id, uid, name, description }) => ({ id, uid, name, description })),
        ctx.query,
      );
      return { data: { projects: items }, pagination };
    },
  },
];

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = options.seed ?? 1;
  const clock = new VirtualClock(options.speed ?? 1);
  const limiter = new RateLimiter(options.rateLimit ?? 1000, () => clock.now());
  let world = seedWorld(seed);
  const log: RequestLogEntry[] = [];

  async function controlPlane(req: IncomingMessage, path: string): Promise<unknown> {
    if (req.method === "GET" && path === "/_emulator/fixtures") {
      const tokens = Object.fromEntries(Object.entries(world.tokens).map(([k, t]) => [k, t.value]));
      return {
        tokens,
        teams: world.teams,
        projects: world.projects.map(({ id, uid, teamId }) => ({ id, uid, teamId })),
      };
    }
    if (req.method === "POST" && path === "/_emulator/reset") {
      world = seedWorld(seed);
      limiter.reset();
      log.length = 0;
      return { ok: true };
    }
    if (req.method === "POST" && path === "/_emulator/clock") {
      const body = (await readJsonBody(req)) as { advanceSeconds?: unknown } | undefined;
      if (typeof body?.advanceSeconds !== "number" || body.advanceSeconds < 0) {
        throw new ApiFailure(400, "advanceSeconds must be a number of seconds, 0 or more", {
          advanceSeconds: ["required"],
        });
      }
      clock.advance(body.advanceSeconds);
      return { now: new Date(clock.now()).toISOString() };
    }
    if (req.method === "GET" && path === "/_emulator/requests") return { requests: log };
    throw new ApiFailure(404, `no control-plane operation ${req.method} ${path}`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> {
    const path = url.pathname;
    if (path.startsWith("/_emulator/")) {
      sendJson(res, 200, await controlPlane(req, path));
      return 200;
    }
    const auth = req.headers.authorization ?? "";
    const token = Object.values(world.tokens).find((t) => auth === `Bearer ${t.value}`);
    if (!token)
      throw new ApiFailure(
        401,
        auth ? "the API token is not valid" : "an API token is required (Authorization: Bearer <token>)",
      );
    const { allowed, headers } = limiter.take(token.teamId ?? "organisation");
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (!allowed) throw new ApiFailure(429, "rate limit exceeded: wait x-ratelimit-reset seconds");
    const twin = /^\/v1\/teams\/([^/]+)(\/.*)$/.exec(path);
    const specPath = twin ? `/v1${twin[2]}` : path;
    const route = routes.find((r) => r.path === specPath && r.method === req.method);
    if (!route) throw new ApiFailure(404, `no operation ${req.method} ${path}`);
    await readJsonBody(req);
    const body = route.handler({
      world,
      token,
      teamId: twin ? decodeURIComponent(twin[1] ?? "") : undefined,
      query: url.searchParams,
    });
    sendJson(res, 200, body);
    return 200;
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://emulator");
    // The platform's clock is the virtual one: clients compare transition times against it.
    res.setHeader("date", new Date(clock.now()).toUTCString());
    let status: number;
    try {
      status = await handle(req, res, url);
    } catch (error) {
      const failure = error instanceof ApiFailure ? error : new ApiFailure(500, "internal error");
      if (!res.headersSent) sendFailure(res, failure);
      status = failure.status;
    }
    if (!url.pathname.startsWith("/_emulator/")) {
      const query: Record<string, string | string[]> = {};
      for (const key of new Set(url.searchParams.keys())) {
        const all = url.searchParams.getAll(key);
        query[key] = all.length === 1 ? (all[0] ?? "") : all;
      }
      log.push({
        method: req.method ?? "",
        path: url.pathname,
        query,
        status,
        time: new Date(clock.now()).toISOString(),
      });
    }
  });
  server.listen(options.port ?? 4010, options.host ?? "127.0.0.1");
  await once(server, "listening");
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
