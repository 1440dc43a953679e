import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { type Rewrite, rewriteAnswer } from "./answer-rewrite.js";
import { ledgerOf } from "./billing/ledger.js";
import { VirtualClock } from "./clock.js";
import { apiRefusal, controlRefusal } from "./control-guard.js";
import { type ControlState, controlPlane } from "./control-plane.js";
import { type Fault, Faults } from "./faults.js";
import { ApiFailure, readJsonBody, sendAnswer, sendFailure, sendJson } from "./http.js";
import { seedWorld, type World, type WorldScale } from "./model/world.js";
import { applyWorldFile, type WorldFile } from "./model/world-file.js";
import { deliver, dueEvents } from "./notifications/deliver.js";
import { RateLimiter } from "./rate-limit.js";
import { RequestLog } from "./request-log.js";
import { match } from "./router.js";
import { routes } from "./routes/index.js";
import type { PageShape, Settings } from "./settings.js";
import { VirtualTime } from "./virtual-time.js";
import { Outcomes } from "./work/outcomes.js";

/** How long the emulator keeps an idle connection open: longer than any client keeps one. */
export const IDLE_CONNECTION_MS = 65_000;

export interface EmulatorOptions {
  host?: string;
  port?: number;
  /** The seeded world's ids, uids and billing derive from it (default 1); given, its tokens do too. */
  seed?: number;
  /** Virtual seconds per real second. */
  speed?: number;
  /** Requests per account per hour. */
  rateLimit?: number;
  /** A larger organisation, for benchmarks (the default is 3 teams of 3 projects). */
  scale?: WorldScale;
  /** Where the virtual clock starts (epoch ms); default now. Seeds and billing history follow it. */
  startAt?: number;
  /** The most log lines one answer holds, below what `lineLimit` asks (see `Settings`). */
  logPageCap?: number;
  /** How lists are paged (settings.ts); "whole" unless said. */
  pageShape?: PageShape;
  /** How many requests the request log keeps, the last ones (default 10,000). */
  requestLogSize?: number;
  /** Names besides this machine's the control plane answers to (e.g. a container's name). */
  controlHosts?: string[];
  /** The user's own projects and templates, laid over the seeded world (and again at each reset). */
  world?: WorldFile;
}

export interface RunningEmulator {
  url: string;
  /**
   * A client clock on this emulator's virtual time (run it at speed 0) that moves its clock in
   * this process, as `POST /_emulator/clock` does without the request: for a benchmark that sleeps
   * thousands of times, half its requests. `virtualTimeOf(url)` does the same from anywhere.
   */
  virtualTime(): VirtualTime;
  close(): Promise<void>;
}

const TWIN = /^\/v1\/teams\/([^/]+)(\/.*)$/;
/** How often (real time) due webhook events are looked for. */
const SETTLE_EVERY_MS = 100;

function findRoute(method: string, path: string) {
  for (const route of routes) {
    if (route.method !== method) continue;
    const params = match(route.pattern, path);
    if (params) return { route, params };
  }
  return undefined;
}

function queryRecord(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    query[key] = all.length === 1 ? (all[0] ?? "") : all;
  }
  return query;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = options.seed ?? 1;
  // Tokens nobody can know in advance unless a seed is asked for: a page or a process that guessed
  // the seeded world's tokens must not act on a user's emulator. The same for the process's life
  // (a reset keeps them), shown by /_emulator/fixtures and the printed paste lines.
  const tokenSalt = options.seed === undefined ? randomBytes(12).toString("hex") : undefined;
  const clock = new VirtualClock(options.speed ?? 1, options.startAt);
  const limiter = new RateLimiter(options.rateLimit ?? 1000, () => clock.now());
  const faults = new Faults();
  const outcomes = new Outcomes();
  const seeded = () => {
    const fresh = seedWorld(seed, clock.now(), options.scale, tokenSalt);
    if (options.world) applyWorldFile(fresh, options.world);
    return fresh;
  };
  let world: World = seeded();
  // A large organisation's billing history is summed by month before the first request, as the
  // platform's is: otherwise its first year-long read pays for it.
  if (options.scale) ledgerOf(world).warm(clock.now());
  const log = new RequestLog(options.requestLogSize);
  const initialSettings: Settings = {
    logPageCap: options.logPageCap,
    pageShape: options.pageShape ?? "whole",
  };
  /** Counts resets: a request answered after a reset is not in the new world's log. */
  let generation = 0;
  const settings: Settings = { ...initialSettings };

  // Webhook deliveries run one batch at a time, in order.
  let delivering = Promise.resolve();
  const settle = () => {
    const events = dueEvents(world, clock.now());
    if (events.length > 0) {
      const target = world;
      delivering = delivering.then(() => deliver(target, events, () => clock.now()));
    }
    return delivering;
  };
  const ticker = setInterval(settle, SETTLE_EVERY_MS);
  ticker.unref();

  const bound = options.host ?? "127.0.0.1";
  // The address bound to is a name it is reached by, unless it is every address (0.0.0.0, ::).
  const controlHosts = [
    ...(options.controlHosts ?? []),
    ...(bound === "0.0.0.0" || bound === "::" ? [] : [bound]),
  ].map((h) => h.toLowerCase());

  const control: ControlState = {
    world: () => world,
    reset: () => {
      world = seeded();
      limiter.reset();
      faults.clear();
      outcomes.clear();
      log.clear();
      generation += 1;
      Object.assign(settings, initialSettings);
    },
    clock,
    faults,
    outcomes,
    settings,
    log,
    settle,
  };

  /** Answers a platform request; returns the body it parsed (for the request log). */
  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<unknown> {
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
    const twin = TWIN.exec(url.pathname);
    const specPath = twin ? `/v1${twin[2]}` : url.pathname;
    const found = findRoute(req.method ?? "", specPath);
    if (!found) {
      const other = routes.some((r) => match(r.pattern, specPath));
      throw new ApiFailure(other ? 405 : 404, `no operation ${req.method} ${url.pathname}`);
    }
    const { route, params } = found;
    const body = await readJsonBody(req);
    const answer = route.handler({
      world,
      now: clock.now(),
      token,
      twinTeamId: twin ? decodeURIComponent(twin[1] ?? "") : undefined,
      params,
      query: url.searchParams,
      body,
      outcomes,
      settings,
    });
    await sendAnswer(res, 200, answer);
    return body;
  }

  /** Writes `text` one character every `ms`, until it is sent or the caller hangs up. */
  async function trickle(res: ServerResponse, status: number, text: string, ms: number): Promise<void> {
    res.writeHead(status, { "content-type": "application/json" });
    for (const char of text) {
      if (res.destroyed) return;
      res.write(char);
      await sleep(ms);
    }
    res.end();
  }

  async function sendFault(res: ServerResponse, fault: Fault): Promise<number> {
    if (fault.reset) {
      res.socket?.destroy();
      return 0;
    }
    if (fault.malformed) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"data": {"truncated');
      return 200;
    }
    const status = fault.status ?? 503;
    for (const [name, value] of Object.entries(fault.headers ?? {})) res.setHeader(name, value);
    if (fault.trickleMs !== undefined)
      await trickle(res, status, JSON.stringify(fault.body ?? { data: {} }), fault.trickleMs);
    else if (fault.body !== undefined) sendJson(res, status, fault.body);
    else sendFailure(res, new ApiFailure(status, "injected fault"));
    return status;
  }

  const server = createServer(async (req, res) => {
    // The platform's clock is the virtual one: clients compare transition times against it.
    res.setHeader("date", new Date(clock.now()).toUTCString());
    const url = parseUrl(req.url);
    if (!url) {
      sendFailure(res, new ApiFailure(400, "the request target is not a valid path"));
      return;
    }
    if (url.pathname.startsWith("/_emulator/")) {
      const refused = controlRefusal(req, controlHosts);
      if (refused) {
        sendFailure(res, new ApiFailure(403, refused));
        return;
      }
      try {
        sendJson(res, 200, await controlPlane(req, url.pathname, control));
      } catch (error) {
        sendFailure(res, error instanceof ApiFailure ? error : new ApiFailure(500, String(error)));
      }
      return;
    }
    const foreign = apiRefusal(req, controlHosts);
    if (foreign) {
      sendFailure(res, new ApiFailure(403, foreign));
      return;
    }
    const method = req.method ?? "";
    const arrivedIn = generation;
    // The connection, kept: Node lets go of `req.socket` once the answer is done.
    const socket = req.socket;
    const bytesBefore = socket.bytesWritten;
    const fault = faults.take(method, url.pathname);
    const answersInstead = fault !== undefined && Boolean(fault.status || fault.reset || fault.malformed);
    if (fault?.breakAfterBytes !== undefined) breakAfter(res, fault.breakAfterBytes);
    // A delay holds the request before it acts, or with `after` holds the answer after it acted.
    if (fault?.delayMs && !fault.after) await sleep(fault.delayMs);
    // Held across a reset, the request belongs to a world that is gone: it must not act on the
    // new one (a test's late start would be another test's history). Cut off, as a platform
    // that went away would.
    if (arrivedIn !== generation) {
      socket.destroy();
      return;
    }
    const acting = !answersInstead || fault?.after === true;
    let status = 200;
    let body: unknown;
    // With `after`, the platform acts on a response that is held (or, for a fault that answers in
    // its place, never sent).
    const held = fault?.after || fault?.rewrite ? heldResponse(res) : undefined;
    const sink = held?.response ?? res;
    if (acting) {
      try {
        body = await api(req, sink, url);
      } catch (error) {
        const failure = error instanceof ApiFailure ? error : new ApiFailure(500, "internal error");
        if (!sink.headersSent) sendFailure(sink, failure);
        // A streamed answer that fails part-way is cut off, as a broken connection would be.
        else sink.socket?.destroy();
        status = failure.status;
      }
    }
    if (fault?.after && fault.delayMs) await sleep(fault.delayMs);
    if (fault && answersInstead) status = await sendFault(res, fault);
    else
      held?.release(
        fault?.rewrite && ((text) => rewriteAnswer(text, fault.rewrite as Rewrite)),
        fault?.rewrite?.headers,
      );
    if (arrivedIn !== generation) return;
    log.add({
      method,
      path: url.pathname,
      query: queryRecord(url.searchParams),
      ...(body !== undefined ? { body } : {}),
      status,
      time: new Date(clock.now()).toISOString(),
      bytes: socket.bytesWritten - bytesBefore,
    });
  });
  // An idle connection is closed by its client, never under it: a server that closes first (Node's
  // default, 5 s) can do so just as the client sends on it again, and that request ends in
  // ECONNRESET (fetch's own idle timeout is 4 s, checked coarsely; seen on loaded test machines).
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  server.listen(options.port ?? 4010, options.host ?? "127.0.0.1");
  await once(server, "listening");
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    virtualTime: () =>
      new VirtualTime(clock.now(), async (ms) => {
        clock.advance(ms / 1000);
        await settle();
      }),
    close: async () => {
      clearInterval(ticker);
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/** Cuts the connection once `limit` bytes of the answer were written: a body that breaks off. */
function breakAfter(res: ServerResponse, limit: number): void {
  let sent = 0;
  const write = res.write.bind(res) as (chunk: string | Uint8Array) => boolean;
  res.write = ((chunk: string | Uint8Array) => {
    if (res.destroyed) return false;
    const size = typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
    if (sent + size <= limit) {
      sent += size;
      return write(chunk);
    }
    write(
      typeof chunk === "string"
        ? Buffer.from(chunk).subarray(0, limit - sent)
        : chunk.subarray(0, limit - sent),
    );
    sent = limit;
    res.socket?.destroySoon();
    return false;
  }) as typeof res.write;
}

/**
 * The request target as a URL; paths such as `//host/x` stay paths. A target with dot segments
 * (`/v1/projects/%2e%2e/...`) is refused rather than resolved: resolving it could lead an API path
 * to the control plane.
 */
function parseUrl(target = "/"): URL | undefined {
  const path = target.startsWith("/") ? target : `/${target}`;
  const segments = path.split("?")[0]?.split("/") ?? [];
  if (segments.some((s) => /^(\.|%2e){1,2}$/i.test(s))) return undefined;
  try {
    return new URL(`http://emulator${path}`);
  } catch {
    return undefined;
  }
}

/**
 * A response that keeps what is written to it: the request acts, and the answer reaches the caller
 * only on `release()` (a delayed answer), or never (a fault answers instead).
 */
function heldResponse(res: ServerResponse): {
  response: ServerResponse;
  release(change?: ((text: string) => string) | undefined, headers?: Record<string, string>): void;
} {
  const headers = new Map<string, number | string | readonly string[]>();
  let head: { status: number; headers: Record<string, string | number> } | undefined;
  let body = "";
  const response = {
    get headersSent() {
      return head !== undefined;
    },
    setHeader: (name: string, value: number | string | readonly string[]) => headers.set(name, value),
    writeHead: (status: number, more: Record<string, string | number> = {}) => {
      head = { status, headers: more };
    },
    // A streamed answer (sendAnswer) writes bytes too, and asks how far ahead it is: held whole,
    // it is never behind.
    write: (text: string | Uint8Array) => {
      body += typeof text === "string" ? text : Buffer.from(text).toString("utf8");
      return true;
    },
    end: (text?: string) => {
      body += text ?? "";
    },
    writableLength: 0,
    on: () => response,
    off: () => response,
    destroyed: false,
    get socket() {
      return res.socket;
    },
  } as unknown as ServerResponse;
  return {
    response,
    /** Sends what was held, its body changed by `change` when given (a rewrite). */
    release: (change?: (text: string) => string, rewriteHeaders?: Record<string, string>) => {
      if (!head || res.destroyed) return;
      const text = change ? change(body) : body;
      for (const [name, value] of headers) res.setHeader(name, value);
      for (const [name, value] of Object.entries(rewriteHeaders ?? {})) res.setHeader(name, value);
      const sized = Object.keys(head.headers).some((name) => /^content-length$/i.test(name));
      res.writeHead(head.status, {
        ...head.headers,
        ...(change && sized ? { "content-length": Buffer.byteLength(text) } : {}),
      });
      res.end(text);
    },
  };
}
