// The wait-efficiency scenarios, on the emulator's clock (`VirtualTime` of @cwp/emulator): how many
// requests our waiter spends on a build and how late it notices the conclusion, beside
// fixed-interval polling; the same with the service's recent build durations as history; and ten
// waits with log streaming sharing one account's 1000-request hour. Deterministic: `main.ts`
// prints them, `test/wait-efficiency*.test.ts` assert their targets in CI.
import { type CwpClient, createClient, type LogLine, type WaitOptions } from "@cwp/client";
import { controlPlane, startEmulator } from "@cwp/emulator";

type Strategy = { name: string; options: WaitOptions<unknown>; history: boolean };
interface Wait {
  durationS: number;
  requests: number;
  delayMs: number;
  /** Within 20% of the median of the history the waiter read (with history only). */
  nearMedian?: boolean;
}
interface Service {
  projectId: string;
  id: string;
}

const OURS: Strategy = { name: "ours", options: {}, history: false };
const OURS_WITH_HISTORY: Strategy = { name: "ours, with history", options: {}, history: true };
const fixed = (seconds: number): Strategy => ({
  name: `fixed ${seconds} s`,
  options: { initialIntervalMs: seconds * 1000, maxIntervalMs: seconds * 1000 },
  history: false,
});

/** A seeded generator (mulberry32), so every run measures the same builds. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function platform(rateLimit: number) {
  const emulator = await startEmulator({ port: 0, speed: 0, rateLimit });
  const control = controlPlane(emulator.url);
  const fixtures = await control("GET", "fixtures");
  const time = emulator.virtualTime();
  const services: Service[] = fixtures.services.filter((s: { kind: string }) => s.kind !== "deployment");
  const client = () => createClient({ baseUrl: emulator.url, token: fixtures.tokens.org, clock: time });
  const requests = async () =>
    (
      (await control("GET", "requests")) as {
        requests: Array<{ method: string; path: string; status: number }>;
      }
    ).requests;
  return { emulator, control, time, services, client, requests };
}
type Platform = Awaited<ReturnType<typeof platform>>;

/** Starts one build that takes `durationS` and waits for it as `strategy` says. */
async function measureWait(
  p: Platform,
  client: CwpClient,
  service: Service,
  durationS: number,
  strategy: Strategy,
) {
  await p.control("POST", "outcomes", { kind: "build", durationSeconds: durationS });
  await p.control("DELETE", "requests");
  const startedAt = p.time.now();
  const build = await client.builds.start(service.projectId, service.id, { branch: "main" });
  const expectedDurationsMs = strategy.history
    ? await client.builds.recentDurations(service.projectId, service.id)
    : undefined;
  await client.builds.waitFor(service.projectId, service.id, build.id, {
    ...strategy.options,
    ...(expectedDurationsMs ? { expectedDurationsMs } : {}),
    startedAt,
    timeoutMs: 4 * 3_600_000,
  });
  const concludedAt = Date.parse(String(build.createdAt)) + durationS * 1000;
  // What the waiter spent: every request after the start (the history read included).
  const requests = (await p.requests()).filter((r) => r.method === "GET").length;
  const median = expectedDurationsMs && medianOf(expectedDurationsMs);
  return {
    durationS,
    requests,
    delayMs: p.time.now() - concludedAt,
    ...(median ? { nearMedian: Math.abs(durationS * 1000 - median) <= 0.2 * median } : {}),
  } satisfies Wait;
}

const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const summary = (name: string, waits: Wait[]) => ({
  strategy: name,
  builds: waits.length,
  meanRequests: mean(waits.map((w) => w.requests)),
  maxRequests: Math.max(...waits.map((w) => w.requests)),
  meanDelayS: mean(waits.map((w) => w.delayMs)) / 1000,
  maxDelayS: Math.max(...waits.map((w) => w.delayMs)) / 1000,
  ...(waits.some((w) => w.nearMedian !== undefined)
    ? {
        nearMedian: waits.filter((w) => w.nearMedian).length,
        maxRequestsNearMedian: Math.max(...waits.filter((w) => w.nearMedian).map((w) => w.requests)),
      }
    : {}),
});

/** No history: builds of 1 to 30 minutes (a seeded second within each minute), one at a time. */
export async function withoutHistory() {
  const p = await platform(1_000_000);
  const draw = random(1);
  const durations = Array.from({ length: 30 }, (_, k) => (k + 1) * 60 + Math.floor(draw() * 60));
  const service = p.services[0] as Service;
  const rows = [];
  for (const strategy of [OURS, fixed(5), fixed(15), fixed(30)]) {
    const client = p.client();
    const waits: Wait[] = [];
    for (const d of durations)
      waits.push(await p.time.thread(() => measureWait(p, client, service, d, strategy)));
    rows.push(summary(strategy.name, waits));
  }
  await p.emulator.close();
  return rows;
}

/**
 * With history: for each median, ten earlier builds and then twenty measured ones, all within
 * `spread` of the median (uniform), the history rolling on as builds conclude.
 */
export async function withHistory(spread: number) {
  const medians = [1, 2, 5, 10, 15, 20, 30];
  const rows = [];
  for (const strategy of [OURS_WITH_HISTORY, OURS]) {
    const p = await platform(1_000_000);
    const all: Wait[] = [];
    const byMedian = [];
    for (const [i, median] of medians.entries()) {
      const service = p.services[i] as Service;
      const draw = random(100 + i);
      const duration = () => Math.round(median * 60 * (1 - spread + 2 * spread * draw()));
      const client = p.client();
      await p.time.thread(async () => {
        for (let k = 0; k < 10; k += 1) {
          const d = duration();
          await p.control("POST", "outcomes", { kind: "build", durationSeconds: d });
          await client.builds.start(service.projectId, service.id, { branch: "main" });
          await p.time.sleep(d * 1000 + 1000);
        }
      });
      const waits: Wait[] = [];
      for (let k = 0; k < 20; k += 1) {
        const d = duration();
        waits.push(await p.time.thread(() => measureWait(p, client, service, d, strategy)));
      }
      all.push(...waits);
      byMedian.push({ medianMinutes: median, ...summary(strategy.name, waits) });
    }
    rows.push({ ...summary(strategy.name, all), byMedian });
    await p.emulator.close();
  }
  return rows;
}

/** Ten builds of 10 to 30 minutes at once on one account (1000 requests an hour), logs streaming. */
export async function tenWaitsStreamingLogs() {
  const p = await platform(1000);
  const draw = random(7);
  const services = p.services.slice(0, 10);
  const durations = services.map(() => 600 + Math.floor(draw() * 1200));
  const lines: string[] = [];
  let logErrors = 0;
  const waits = await Promise.all(
    services.map((service, i) =>
      p.time.thread(async () => {
        // Each step is a process of its own: its own client, its own view of the budget.
        const client = p.client();
        const d = durations[i] as number;
        await p.control("POST", "outcomes", { kind: "build", durationSeconds: d });
        const startedAt = p.time.now();
        const build = await client.builds.start(service.projectId, service.id, { branch: "main" });
        const stop = new AbortController();
        const follower = client.builds.followLogs(service.projectId, service.id, build.id, {
          startTime: new Date(startedAt).toISOString(),
        });
        const take = (batch: LogLine[]) => lines.push(...batch.map((l) => `${build.id} ${l.ts} ${l.log}`));
        const streaming = p.time.thread(() =>
          follower.stream({
            signal: stop.signal,
            onLines: take,
            onError: () => {
              logErrors += 1;
            },
          }),
        );
        await client.builds.waitFor(service.projectId, service.id, build.id, {
          startedAt,
          timeoutMs: 4 * 3_600_000,
        });
        stop.abort();
        await streaming;
        // What a step does once the build concluded: read what is left.
        for (let batch = await follower.next(); batch.length > 0; batch = await follower.next()) take(batch);
        return { durationS: d, delayMs: p.time.now() - (Date.parse(String(build.createdAt)) + d * 1000) };
      }),
    ),
  );
  const log = await p.requests();
  await p.emulator.close();
  return {
    builds: waits.length,
    durationsMinutes: `${Math.min(...durations) / 60}–${Math.max(...durations) / 60}`,
    requests: log.length,
    requestsPerBuild: log.length / waits.length,
    buildReads: log.filter((r) => /\/build\/[^/]+$/.test(r.path) && r.method === "GET").length,
    logReads: log.filter((r) => r.path.endsWith("/build-logs")).length,
    rateLimited: log.filter((r) => r.status === 429).length,
    logLines: lines.length,
    distinctLogLines: new Set(lines).size,
    logErrors,
    meanDelayS: mean(waits.map((w) => w.delayMs)) / 1000,
    maxDelayS: Math.max(...waits.map((w) => w.delayMs)) / 1000,
  };
}
