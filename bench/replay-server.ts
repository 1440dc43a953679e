// The answers a report got from the emulator, recorded to files and served again as they were,
// after the same latency: the platform without the work of making them. A step run against it
// shows what the step costs when nothing else on this machine is making its answers (on a runner
// the platform is elsewhere).
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { request } from "undici";

export interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
}

const keyOf = (path: string, query: URLSearchParams) => `${path}?${query}`;

export async function startReplay(url: string, token: string, log: Recorded[], latencyMs: number) {
  const dir = await mkdtemp(join(tmpdir(), "cwp-bench-replay-"));
  const answers = new Map<string, { status: number; file: string }>();
  for (const [i, entry] of log.entries()) {
    const key = keyOf(entry.path, new URLSearchParams(entry.query));
    if (entry.method !== "GET" || answers.has(key)) continue;
    const res = await request(`${url}${key}`, { headers: { authorization: `Bearer ${token}` } });
    const file = join(dir, `${i}.json`);
    await pipeline(res.body, createWriteStream(file));
    answers.set(key, { status: res.statusCode, file });
  }
  let misses = 0;
  const server = createServer((req, res) => {
    const asked = new URL(req.url ?? "/", "http://replay");
    const answer = req.method === "GET" ? answers.get(keyOf(asked.pathname, asked.searchParams)) : undefined;
    setTimeout(() => {
      if (!answer) {
        misses += 1;
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not recorded"}');
        return;
      }
      res.writeHead(answer.status, { "content-type": "application/json" });
      createReadStream(answer.file).pipe(res);
    }, latencyMs);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Requests the step made that the first run did not (the replay then answers 404). */
    misses: () => misses,
    async close() {
      server.closeAllConnections();
      server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
