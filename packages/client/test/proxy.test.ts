import { once } from "node:events";
import { createServer, request as httpRequest } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClient } from "../src/index.js";
import { type ScriptedServer, startScriptedServer, TOKEN } from "./helpers/scripted-server.js";

/** A forward proxy on loopback that records what it carried: CONNECT tunnels and plain requests. */
async function startProxy() {
  const seen: string[] = [];
  const proxy = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const upstream = httpRequest(req.url ?? "", { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(upstream);
  });
  proxy.on("connect", (req, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? "").split(":");
    const upstream = connect(Number(port), host, () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
  });
  proxy.listen(0, "127.0.0.1");
  await once(proxy, "listening");
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen,
    close: () => proxy.close(),
  };
}

const saved = { ...process.env };
let server: ScriptedServer;

beforeEach(async () => {
  server = await startScriptedServer();
  server.on("GET", "/v1/projects", () => ({
    body: { data: { projects: [] }, pagination: { hasNextPage: false, count: 0 } },
  }));
});
afterEach(async () => {
  process.env = { ...saved };
  await server.close();
});

/** Lists projects with HTTP_PROXY at a fresh local proxy and the given NO_PROXY; returns what the proxy carried. */
async function listProjectsVia(noProxy: string): Promise<string[]> {
  const proxy = await startProxy();
  process.env.HTTP_PROXY = proxy.url;
  process.env.NO_PROXY = noProxy;
  const client = createClient({ baseUrl: server.url, token: TOKEN });
  await client.projects.list();
  await client.close();
  proxy.close();
  return proxy.seen;
}

describe("proxies", () => {
  it("sends requests through HTTP_PROXY", async () => {
    const seen = await listProjectsVia("");
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toContain(`127.0.0.1:${server.port}`);
    expect(server.requests).toHaveLength(1);
  });

  it("goes direct for hosts in NO_PROXY", async () => {
    const seen = await listProjectsVia("127.0.0.1");
    expect(seen).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});
