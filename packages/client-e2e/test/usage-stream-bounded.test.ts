import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sendHugeAnswer } from "@cwp/action-testing";
import { createClient, UnexpectedResponseError } from "@cwp/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A usage list whose first entry never ends (a string of 1.5 GB, as fast as it is read): the
// streamed read keeps one entry at a time, so one entry is what it bounds.

const MB = 1024 * 1024;
let server: Server;
let url: string;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests += 1;
    req.resume();
    sendHugeAnswer(res, {
      head: '{"data":{"currency":"USD","usage":[{"window":{"start":0,"end":1},"paas":{"teams":[{"id":"',
      fill: "a",
      tail: '"}]}}]},"pagination":{"hasNextPage":false}}',
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("billing.streamUsage: an entry past the bound", () => {
  it("fails as too large once the entry passes 32 MB, without reading on or asking again", async () => {
    const client = createClient({ baseUrl: url, token: "cwp_test_token" });
    const before = process.memoryUsage().rss;
    const read = async () => {
      for await (const _ of client.billing.streamUsage({
        granularity: "day",
        startTime: 0,
        endTime: 86_400,
      }));
    };
    const error = await read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toMatch(
      /^GET \/v1\/billing\/usage answered 200 with an entry too large \(over 32 MB; one entry may hold 32 MB\)/,
    );
    expect(requests).toBe(1);
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * MB);
    await client.close();
  });
});
