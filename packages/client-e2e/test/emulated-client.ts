import { type ClientOptions, type CwpClient, createClient } from "@cwp/client";
import {
  controlPlane,
  type EmulatorOptions,
  startEmulator,
  type VirtualTime,
  virtualTimeOf,
} from "@cwp/emulator";
import { afterAll, beforeAll, beforeEach } from "vitest";

// One emulator per test file at speed 0, reset before every test, and clients whose clock is the
// emulator's: a thirty-minute wait takes as long as its requests, and every wait is exact.

export interface EmulatedClient {
  url: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the fixtures they need.
  fixtures: any;
  time: VirtualTime;
  /** A client on the organisation token (or `options.token`) and the virtual clock. */
  client(options?: Partial<ClientOptions>): CwpClient;
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  requests(): Promise<Array<{ method: string; path: string; query: Record<string, string>; status: number }>>;
  /** Runs `body` with the virtual clock moving whenever it (and every other thread) sleeps. */
  run<T>(body: () => Promise<T>): Promise<T>;
}

export function useEmulatedClient(options: Omit<EmulatorOptions, "speed" | "port"> = {}): EmulatedClient {
  let close: (() => Promise<void>) | undefined;
  const clients: CwpClient[] = [];
  const state = {} as { url: string; fixtures: unknown; time: VirtualTime };
  const control = (method: string, path: string, body?: unknown) =>
    controlPlane(state.url)(method, path, body);
  beforeAll(async () => {
    const emulator = await startEmulator({ ...options, port: 0, speed: 0 });
    close = emulator.close;
    state.url = emulator.url;
  });
  beforeEach(async () => {
    await control("POST", "reset");
    state.fixtures = await control("GET", "fixtures");
    state.time = await virtualTimeOf(state.url);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await close?.();
  });
  return {
    get url() {
      return state.url;
    },
    get fixtures() {
      return state.fixtures;
    },
    get time() {
      return state.time;
    },
    client: (o = {}) => {
      const c = createClient({
        baseUrl: state.url,
        // biome-ignore lint/suspicious/noExplicitAny: the fixtures' token map.
        token: (state.fixtures as any).tokens.org,
        clock: state.time,
        ...o,
      });
      clients.push(c);
      return c;
    },
    control,
    requests: async () => ((await control("GET", "requests")) as { requests: never }).requests,
    run: (body) => state.time.thread(body),
  };
}

/** Every item of an async list, in order. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
