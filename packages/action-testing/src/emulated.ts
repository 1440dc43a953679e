import { controlPlane, type RunningEmulator, startEmulator, type WorldFile } from "@cwp/emulator";

/** An emulator for action tests: fixtures, control-plane calls and the request log at hand. */
export interface TestPlatform {
  url: string;
  tokens: Record<"org" | "teamViaOrg" | "teamOwnBilling" | "readOnly", string>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the fixtures they need.
  fixtures: any;
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  requests(): Promise<
    Array<{
      method: string;
      path: string;
      query: Record<string, string>;
      body?: unknown;
      status: number;
      /** On the emulator's clock, ISO 8601. */
      time: string;
    }>
  >;
  reset(): Promise<void>;
  close(): Promise<void>;
  /** The connection inputs for an action on this platform: `api-url`, and `api-token` (org by default). */
  connection(token?: string): { "api-token": string; "api-url": string };
  /**
   * The platform's time for a step, as `cwp rehearse` hands it (CWP_PLATFORM_CLOCK: where the
   * emulator's clock stands now, at this machine's instant, and its speed), so that the step's polls,
   * timeouts and durations are the platform's and a test waits platform minutes in real
   * milliseconds. Nothing where the emulator's time stands still (speed 0): real time is the step's.
   */
  stepClock(): Promise<Record<string, string>>;
}

export interface TestPlatformOptions {
  speed?: number;
  rateLimit?: number;
  /** Where the emulator's clock starts (epoch ms): a fixed start gives the same billing every run. */
  startAt?: number;
  /** A larger organisation than the seed's (teams × projects × resources), for reports at scale. */
  scale?: { teams: number; projectsPerTeam: number; resourcesPerProject: number };
  /** A user's own world laid over the seeded one (`parseWorldFile` of a world file). */
  world?: WorldFile;
}

export async function startTestPlatform(options: TestPlatformOptions = {}): Promise<TestPlatform> {
  const emulator: RunningEmulator = await startEmulator({
    port: 0,
    speed: options.speed ?? 30,
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    ...(options.startAt !== undefined ? { startAt: options.startAt } : {}),
    ...(options.scale ? { scale: options.scale } : {}),
    ...(options.world ? { world: options.world } : {}),
  });
  const control = controlPlane(emulator.url);
  const platform: TestPlatform = {
    url: emulator.url,
    tokens: {} as TestPlatform["tokens"],
    fixtures: undefined,
    control,
    requests: async () =>
      ((await control("GET", "requests")) as { requests: Awaited<ReturnType<TestPlatform["requests"]>> })
        .requests,
    reset: async () => {
      await control("POST", "reset");
      platform.fixtures = await control("GET", "fixtures");
      platform.tokens = platform.fixtures.tokens;
    },
    close: () => emulator.close(),
    connection: (token) => ({ "api-token": token ?? platform.tokens.org, "api-url": emulator.url }),
    stepClock: async (): Promise<Record<string, string>> => {
      const askedAt = Date.now();
      const { now, speed } = (await control("GET", "clock")) as { now: string; speed: number };
      if (!(speed > 0)) return {};
      const time = { at: Date.parse(now), realAt: (askedAt + Date.now()) / 2, speed };
      return { CWP_PLATFORM_CLOCK: JSON.stringify(time) };
    },
  };
  await platform.reset();
  return platform;
}
