import { once } from "node:events";
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createTcpServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionError, createClient, TimeoutError } from "../src/index.js";
import { FAST, TOKEN } from "./helpers/scripted-server.js";

// What a user sees when the API URL points at the wrong thing: the time actually waited, and the
// scheme that would work.

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});
async function listening(server: Server): Promise<number> {
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("connection mistakes", () => {
  it("a connection never completed is reported with the time actually waited, over every attempt", async () => {
    // Accepts TCP and never speaks: the TLS handshake never completes, as behind a dropped SYN.
    const port = await listening(createTcpServer(() => {}));
    const client = createClient({
      baseUrl: `https://127.0.0.1:${port}`,
      token: TOKEN,
      timeoutMs: 400,
      ...FAST,
    });
    const startedAt = Date.now();
    const error = (await client.projects.list().catch((e: unknown) => e)) as TimeoutError;
    const took = (Date.now() - startedAt) / 1000;
    expect(error).toBeInstanceOf(TimeoutError);
    const match =
      /^GET \/v1\/projects: the platform at https:\/\/127\.0\.0\.1:\d+ did not accept a connection within ([\d.]+) s \(no connection was made\) \(2 attempts over ([\d.]+) s\)$/.exec(
        error.message,
      );
    expect(match, error.message).not.toBeNull();
    const [, each, total] = match?.map(Number) ?? [];
    // Each attempt is said as long as it took (the connect limit, not the 30 s answer limit), the
    // total as the time from the first attempt to the error.
    expect(each).toBeGreaterThanOrEqual(0.4);
    expect(each).toBeLessThan(1.5);
    expect(total).toBeGreaterThanOrEqual(0.8);
    expect(total).toBeLessThanOrEqual(took + 0.1);
    await client.close();
  });

  it("a URL that answers 404 with a web page is said to be not the API, not a resource missing", async () => {
    const page = "<!doctype html><title>Not Found</title><h1>Not Found</h1>";
    const port = await listening(
      createHttpServer((_req, res) => res.writeHead(404, { "content-type": "text/html" }).end(page)),
    );
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, maxRetries: 0 });
    const error = (await client.projects.list().catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      `GET /v1/projects failed with 404: the answer is an HTML page, not the API's; http://127.0.0.1:${port} is not the API: check the API URL (api-url / CWP_API_URL). Nothing was started there`,
    );
    await client.close();
  });

  it("https against a plain-http server says so, with the URL to use", async () => {
    const port = await listening(createHttpServer((_req, res) => res.end("{}")));
    const client = createClient({ baseUrl: `https://127.0.0.1:${port}`, token: TOKEN, maxRetries: 0 });
    const error = (await client.projects.list().catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toContain(
      `the server there speaks plain http, not https; is the API URL http://127.0.0.1:${port}?`,
    );
    await client.close();
  });

  it("http against a TLS server says it may speak https", async () => {
    const port = await listening(createHttpsServer({}, (_req, res) => res.end("{}")));
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, maxRetries: 0 });
    const error = (await client.projects.list().catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toContain(`if it speaks https, the API URL is https://127.0.0.1:${port}`);
    await client.close();
  });
});
