import { afterAll, beforeAll, beforeEach } from "vitest";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../src/index.js";

// One emulator per test file, reset before every test: tests talk to it over loopback HTTP.

export interface Fixtures {
  tokens: Record<"org" | "teamViaOrg" | "teamOwnBilling" | "readOnly", string>;
  teams: Array<{ id: string; uid: string; billing: "organisation" | "own" }>;
  projects: Array<{ id: string; uid: string; teamId: string }>;
  services: Array<{ projectId: string; id: string; uid: string; kind: string }>;
  jobs: Array<{ projectId: string; id: string; uid: string; paused: boolean }>;
  templates: Array<{ id: string }>;
  addons: Array<{
    projectId: string;
    id: string;
    uid: string;
    version: string;
    status: string;
    versions: string[];
    backups: Array<{ id: string; status: string; sourceType: string; addonVersion: string; global: boolean }>;
  }>;
  harnesses: Array<{ projectId: string; id: string }>;
  volumes: Array<{ projectId: string; id: string; uid: string }>;
  domains: Array<{ domain: string; subdomains: string[] }>;
  notifications: Array<{ id: string; status: { numberOfFailedRequests: number } }>;
  billing: { historyStart: string };
}

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the emulator answered.
  body: any;
}

export interface Emulated {
  url: string;
  fixtures: Fixtures;
  /** A raw request: no client-side validation, so the emulator's own checks are what answers. */
  api(
    method: string,
    path: string,
    options?: {
      token?: string | null;
      query?: Record<string, string | number | boolean | string[]>;
      body?: unknown;
      headers?: Record<string, string>;
    },
  ): Promise<Answer>;
  control(method: string, path: string, body?: unknown): Promise<Answer>;
  advance(seconds: number): Promise<void>;
  now(): Promise<number>;
}

export function useEmulator(options: EmulatorOptions = {}): Emulated {
  let emulator: RunningEmulator;
  const state = { url: "", fixtures: undefined as unknown as Fixtures };
  const call = async (method: string, url: string, init: RequestInit = {}): Promise<Answer> => {
    const res = await fetch(url, { method, ...init });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: res.status, headers: res.headers, body };
  };
  const emulated: Emulated = {
    get url() {
      return state.url;
    },
    get fixtures() {
      return state.fixtures;
    },
    api: (method, path, o = {}) => {
      const search = new URLSearchParams();
      for (const [k, v] of Object.entries(o.query ?? {}))
        for (const item of Array.isArray(v) ? v : [v]) search.append(k, String(item));
      const qs = search.toString();
      const token = o.token === undefined ? state.fixtures.tokens.org : o.token;
      return call(method, `${state.url}${path}${qs ? `${path.includes("?") ? "&" : "?"}${qs}` : ""}`, {
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(o.body !== undefined ? { "content-type": "application/json" } : {}),
          ...o.headers,
        },
        ...(o.body !== undefined
          ? { body: typeof o.body === "string" ? o.body : JSON.stringify(o.body) }
          : {}),
      });
    },
    control: (method, path, body) =>
      call(method, `${state.url}/_emulator/${path}`, {
        ...(body !== undefined
          ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } }
          : {}),
      }),
    advance: async (seconds) => {
      const answer = await emulated.control("POST", "clock", { advanceSeconds: seconds });
      if (answer.status !== 200) throw new Error(`clock: ${JSON.stringify(answer.body)}`);
    },
    now: async () => Date.parse((await emulated.control("GET", "clock")).body.now),
  };
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, ...options });
    state.url = emulator.url;
  });
  beforeEach(async () => {
    await emulated.control("POST", "reset");
    state.fixtures = (await emulated.control("GET", "fixtures")).body as Fixtures;
  });
  afterAll(() => emulator.close());
  return emulated;
}
