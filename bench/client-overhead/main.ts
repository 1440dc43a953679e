// bench/client-overhead: prints the client's throughput beside raw undici's and the cost of
// validating a drill-down page (see measure.ts).
// Run: pnpm build && pnpm bench
import { measureParse, measureThroughput } from "./measure.ts";

const requests = Number(process.env.BENCH_REQUESTS ?? 20_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const throughput = await measureThroughput({ requests, concurrency, rounds });
const parse = measureParse();
console.log(
  JSON.stringify({ node: process.version, requests, concurrency, rounds, ...throughput, ...parse }, null, 2),
);
console.log(
  `client keeps ${(throughput.medianRatio * 100).toFixed(1)}% of raw undici's throughput (median of ${rounds} round pairs), ${(throughput.cpuRatio * 100).toFixed(1)}% per CPU second (target: at least 90%); validating the drill-down page costs ${parse.validateRatio.toFixed(2)}x JSON.parse (target: at most 1.5x)`,
);
