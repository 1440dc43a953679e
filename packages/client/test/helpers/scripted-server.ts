import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach } from "vitest";
import { type ClientOptions, type CwpClient, createClient } from "../../src/index.js";

// A small HTTP server on loopback whose answers each test scripts, to the millisecond and the
// header: the transport's own contract (what each status, stall, reset or HTML page leads to).
// The client against the emulator, area by area, is in packages/client-e2e: the emulator builds
// on this package's schemas, so it cannot be a dependency of this package's tests.

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
  at: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** JSON body; default `{ data: {} }`. */
  body?: unknown;
  /** A raw body instead of JSON. */
  raw?: string;
  /** Destroy the socket without answering. */
  reset?: boolean;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Send the body one byte every this many ms (a body that trickles in). */
  trickleMs?: number;
}

type Handler = (request: Recorded, callNumber: number) => Reply | Promise<Reply>;

export interface ScriptedServer {
  url: string;
  port: number;
  requests: Recorded[];
  on(method: string, path: string | RegExp, handler: Handler): void;
  close(): Promise<void>;
}

export async function startScriptedServer(port = 0): Promise<ScriptedServer> {
  const routes: Array<{ method: string; path: string | RegExp; handler: Handler; calls: number }> = [];
  const requests: Recorded[] = [];
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const recorded: Recorded = {
      method: req.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: text ? JSON.parse(text) : undefined,
      at: Date.now(),
    };
    requests.push(recorded);
    const route = routes.find(
      (r) =>
        r.method === recorded.method &&
        (typeof r.path === "string" ? r.path === recorded.path : r.path.test(recorded.path)),
    );
    const reply: Reply = route
      ? await route.handler(recorded, ++route.calls)
      : { status: 404, body: { error: { status: 404, message: "no such path", id: "err-404" } } };
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (reply.reset) {
      req.socket.destroy();
      return;
    }
    const headers = {
      "content-type": reply.raw === undefined ? "application/json" : "text/html",
      ...reply.headers,
    };
    res.writeHead(reply.status ?? 200, headers);
    const answer = reply.raw ?? JSON.stringify(reply.body ?? { data: {} });
    if (reply.trickleMs === undefined) {
      res.end(answer);
      return;
    }
    for (const char of answer) {
      if (res.destroyed) return;
      res.write(char);
      await new Promise((r) => setTimeout(r, reply.trickleMs));
    }
    res.end();
  });
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    requests,
    on(method, path, handler) {
      routes.push({ method, path, handler, calls: 0 });
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/** A port that nothing listens on (for refused connections). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}

export const TOKEN = "cwp_test_token_5f2b9c7e1d";

/** Fast retries so tests do not wait on production backoffs. */
export const FAST = { retryBaseDelayMs: 5, retryMaxDelayMs: 20 } as const;

export const build = (status: string, concluded = false, extra: Record<string, unknown> = {}) => ({
  id: "joyous-view-6290",
  branch: "main",
  sha: "a".repeat(40),
  status,
  concluded,
  success: status === "SUCCESS",
  createdAt: "2026-11-21T10:00:00Z",
  ...extra,
});

/**
 * A fresh scripted server and a client pointed at it for every test of the file; read them from
 * the returned object inside tests.
 */
export function useScriptedPlatform(options: Partial<ClientOptions> = {}): {
  server: ScriptedServer;
  client: CwpClient;
} {
  const context = {} as { server: ScriptedServer; client: CwpClient };
  beforeEach(async () => {
    context.server = await startScriptedServer();
    context.client = createClient({ baseUrl: context.server.url, token: TOKEN, ...options });
  });
  afterEach(async () => {
    await context.client.close();
    await context.server.close();
  });
  return context;
}
