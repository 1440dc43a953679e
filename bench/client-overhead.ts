// bench/client-overhead: the typed client against raw undici.request on the same loopback endpoint,
// and the cost of parsing and validating a 100-item billing drill-down page against JSON.parse alone.
// Run: pnpm build && pnpm bench
import { fork } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { createClient, invoiceDetailResponse } from "@cwp/client";
import { Agent, request } from "undici";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = 3;
const PARSE_ITERATIONS = 2_000;

async function throughput(call: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) await call();
    }),
  );
  return REQUESTS / ((performance.now() - started) / 1000);
}

const server = fork(fileURLToPath(new URL("./loopback-server.ts", import.meta.url)));
const [{ port }] = (await once(server, "message")) as [{ port: number }];
const url = `http://127.0.0.1:${port}`;

const rawAgent = new Agent({ connections: CONCURRENCY });
const raw = async () => {
  const res = await request(`${url}/v1/projects`, {
    dispatcher: rawAgent,
    headers: { authorization: "Bearer bench" },
  });
  return res.body.json();
};
const client = createClient({
  baseUrl: url,
  token: "bench",
  dispatcher: new Agent({ connections: CONCURRENCY }),
});
const typed = () => client.projects.list();

// Warm both paths, then alternate rounds so neither gains from running later; keep each one's best.
await throughput(raw);
await throughput(typed);
let rawBest = 0;
let typedBest = 0;
for (let round = 0; round < ROUNDS; round++) {
  rawBest = Math.max(rawBest, await throughput(raw));
  typedBest = Math.max(typedBest, await throughput(typed));
}
server.kill();
await rawAgent.close();
await client.close();

// A drill-down page at the resources level: one team, one project, 100 resource items.
const item = (i: number) => ({
  id: i.toString(16).padStart(24, "0"),
  price: { total: 12.34, cpu: 7.123456, memory: 4.2, storage: 1.016544, gpu: 0 },
  usage: { vcpuHours: 720.5, memoryGibHours: 1441, storageGibHours: 7200, gpuHours: 0 },
});
const page = JSON.stringify({
  data: {
    id: "in_2026_10",
    status: "paid",
    currency: "USD",
    total: 1234,
    paas: {
      price: { total: 1234 },
      teams: [
        {
          ...item(1),
          projects: [
            {
              ...item(2),
              resources: [{ resourceType: "service", items: Array.from({ length: 100 }, (_, i) => item(i)) }],
            },
          ],
        },
      ],
    },
  },
  pagination: { hasNextPage: true, count: 100, unit: "resources" },
});
const time = (fn: () => unknown) => {
  for (let i = 0; i < 200; i++) fn();
  const started = performance.now();
  for (let i = 0; i < PARSE_ITERATIONS; i++) fn();
  return ((performance.now() - started) * 1000) / PARSE_ITERATIONS;
};
const parseOnly = time(() => JSON.parse(page));
const parseAndValidate = time(() => invoiceDetailResponse.parse(JSON.parse(page)));

const results = {
  node: process.version,
  requests: REQUESTS,
  concurrency: CONCURRENCY,
  rawUndiciRps: Math.round(rawBest),
  clientRps: Math.round(typedBest),
  ratio: Number((typedBest / rawBest).toFixed(3)),
  drillDownPageBytes: page.length,
  jsonParseMicros: Number(parseOnly.toFixed(1)),
  jsonParseAndValidateMicros: Number(parseAndValidate.toFixed(1)),
};
console.log(JSON.stringify(results, null, 2));
console.log(
  `client keeps ${(results.ratio * 100).toFixed(1)}% of raw undici throughput (target: at least 85%)`,
);
