import { once } from "node:events";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { getJson } from "../src/engine/loopback-json.js";

// What the CLI asks an emulator on this machine (its clock, a rehearsal's tokens): a small JSON
// answer, or nothing it would act on.

async function answering(listener: RequestListener) {
  const server = createServer(listener);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/_emulator/clock`);
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { url, close };
}

const LIMITS = { timeoutMs: 500, maxBytes: 4096 };

describe("getJson", () => {
  it("reads a 2xx JSON answer", async () => {
    const server = await answering((_, res) => res.end('{"now":"2026-12-07T00:00:00.000Z","speed":60}'));
    try {
      expect(await getJson(server.url, LIMITS)).toEqual({ now: "2026-12-07T00:00:00.000Z", speed: 60 });
    } finally {
      server.close();
    }
  });

  it("reads nothing from another status, text that is no JSON, or an answer above its bound", async () => {
    const answers: RequestListener[] = [
      (_, res) => res.writeHead(404).end('{"now":1}'),
      (_, res) => res.end("<html>a proxy</html>"),
      (_, res) => res.end(`{"pad":"${"x".repeat(10_000)}"}`),
    ];
    for (const answer of answers) {
      const server = await answering(answer);
      try {
        expect(await getJson(server.url, LIMITS)).toBeUndefined();
      } finally {
        server.close();
      }
    }
  });

  it("gives up at its timeout on an answer that never ends, and on no server at all", async () => {
    const server = await answering((_, res) => res.write('{"now":'));
    try {
      const began = Date.now();
      expect(await getJson(server.url, LIMITS)).toBeUndefined();
      expect(Date.now() - began).toBeGreaterThanOrEqual(LIMITS.timeoutMs - 50);
    } finally {
      server.close();
    }
    expect(await getJson(new URL("http://127.0.0.1:1/"), LIMITS)).toBeUndefined();
  });
});
