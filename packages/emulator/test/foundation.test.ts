import { spawn } from "node:child_process";
import { once } from "node:events";
import { request as httpRequest } from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { AuthenticationError, createClient, RateLimitError } from "@cwp/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../src/index.js";

let emulator: RunningEmulator;
let fixtures: { tokens: Record<string, string>; projects: Array<{ id: string; teamId: string }> };

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, rateLimit: 50 });
  fixtures = (await (await fetch(`${emulator.url}/_emulator/fixtures`)).json()) as typeof fixtures;
});
afterEach(() => emulator.close());

describe("emulator foundation", () => {
  it("serves every project over cursor pages to the client, and the team twin narrows them", async () => {
    const client = createClient({ baseUrl: emulator.url, token: fixtures.tokens.org! });
    const ids: string[] = [];
    for await (const p of client.projects.iterate({ per_page: 2 })) ids.push(p.id);
    expect(ids).toEqual(fixtures.projects.map((p) => p.id));
    const labs = await client.projects.list({}, { teamId: "labs" });
    expect(labs.items.map((p) => p.id)).toEqual(
      fixtures.projects.filter((p) => p.teamId === "labs").map((p) => p.id),
    );
    await client.close();
  });

  it("answers 401 without a valid token and 429 once the hourly budget is spent, with the headers", async () => {
    const bad = createClient({ baseUrl: emulator.url, token: "nope", maxRetries: 0 });
    await expect(bad.projects.list()).rejects.toBeInstanceOf(AuthenticationError);
    await bad.close();
    const client = createClient({
      baseUrl: emulator.url,
      token: fixtures.tokens.org!,
      maxRetries: 0,
      maxRateLimitWaitMs: 0,
    });
    for (let i = 0; i < 50; i++) await client.projects.list();
    expect(client.rateLimit).toMatchObject({ limit: 50, remaining: 0 });
    const res = await fetch(`${emulator.url}/v1/projects`, {
      headers: { authorization: `Bearer ${fixtures.tokens.org}` },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    await expect(client.projects.list()).rejects.toBeInstanceOf(RateLimitError);
    await client.close();
  });

  it("answers bad requests with a JSON 4xx, never a crash", async () => {
    const auth = { authorization: `Bearer ${fixtures.tokens.org}` };
    const cases: Array<[string, RequestInit, number]> = [
      ["/v1/nowhere", { headers: auth }, 404],
      [
        "/_emulator/clock",
        { method: "POST", body: "{not json", headers: { "content-type": "application/json" } },
        400,
      ],
      [
        "/_emulator/clock",
        { method: "POST", body: "advance=1", headers: { "content-type": "text/plain" } },
        415,
      ],
      [
        "/_emulator/clock",
        {
          method: "POST",
          body: "x".repeat(1024 * 1024 + 1),
          headers: { "content-type": "application/json" },
        },
        413,
      ],
      ["/v1/projects?per_page=101", { headers: auth }, 400],
    ];
    for (const [path, init, status] of cases) {
      const res = await fetch(`${emulator.url}${path}`, init);
      expect(res.status, path).toBe(status);
      const body = (await res.json()) as { error: { status: number; message: string; id: string } };
      expect(body.error.status).toBe(status);
      expect(body.error.id).toMatch(/^err_/);
    }
  });
});

describe("cwp-emulator command", () => {
  it("prints its address as the first line and serves there", async () => {
    const bin = fileURLToPath(new URL("../bin/cwp-emulator.js", import.meta.url));
    const child = spawn(process.execPath, [bin, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const next = async () => (await lines.next()).value as string;
    const line = await next();
    expect(line).toMatch(/^cwp-emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.replace("cwp-emulator listening on ", "");
    expect((await fetch(`${url}/_emulator/fixtures`)).status).toBe(200);
    // Then lines to paste into a shell: the URL, and a token every operation accepts.
    expect(await next()).toMatch(/^# /);
    expect(await next()).toBe(`export CWP_API_URL=${url}`);
    const token = (await next()).replace(/^export CWP_API_TOKEN=/, "");
    expect(token).toMatch(/^\S+$/);
    const projects = await fetch(`${url}/v1/projects`, { headers: { authorization: `Bearer ${token}` } });
    expect(projects.status).toBe(200);
    child.kill("SIGTERM");
    await once(child, "exit");
  });

  it("gives random API tokens at each start unless --seed is given, as --help says", async () => {
    const bin = fileURLToPath(new URL("../bin/cwp-emulator.js", import.meta.url));
    /** The token a start prints, read from its lines to paste. */
    const tokenOf = async (args: string[]) => {
      const child = spawn(process.execPath, [bin, "--port", "0", ...args], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      let token = "";
      for await (const line of createInterface({ input: child.stdout! }))
        if (line.startsWith("export CWP_API_TOKEN=")) {
          token = line.slice("export CWP_API_TOKEN=".length);
          break;
        }
      child.kill("SIGTERM");
      await once(child, "exit");
      return token;
    };
    const [a, b] = [await tokenOf([]), await tokenOf([])];
    expect(a).toMatch(/\S/);
    expect(a).not.toBe(b);
    expect(await tokenOf(["--seed", "1"])).toBe(await tokenOf(["--seed", "1"]));
  });

  it("--help prints every option with its default, each apart from its meaning, and starts nothing", async () => {
    const bin = fileURLToPath(new URL("../bin/cwp-emulator.js", import.meta.url));
    for (const flag of ["--help", "-h"]) {
      const child = spawn(process.execPath, [bin, flag], { stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      child.stdout!.on("data", (chunk) => {
        stdout += chunk;
      });
      const [code] = (await once(child, "exit")) as [number];
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Usage: cwp-emulator \[options\]/);
      // At least two spaces between an option and what it means, the longest included.
      for (const option of [
        "--host",
        "--port",
        "--seed",
        "--speed",
        "--rate-limit",
        "--scale",
        "--start-at",
        "--log-page-cap",
        "--control-host",
        "--world",
      ])
        expect(stdout).toMatch(new RegExp(`^  ${option} <value>  +\\S`, "m"));
      expect(stdout).toContain("(default: 4010)");
      expect(stdout).not.toMatch(/^cwp-emulator listening on/m);
    }
  });

  it("on a port in use, says so in one line naming the port and --port, and exits 1", async () => {
    const taken = await startEmulator({ port: 0, speed: 0 });
    const port = new URL(taken.url).port;
    const bin = fileURLToPath(new URL("../bin/cwp-emulator.js", import.meta.url));
    const child = spawn(process.execPath, [bin, "--port", port], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (chunk) => {
      stderr += chunk;
    });
    const [code] = (await once(child, "exit")) as [number];
    await taken.close();
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      `cwp-emulator: port ${port} is in use; start it on another with --port (--port 0 picks a free one)`,
    ]);
  });
});

describe("the control plane as a local server", () => {
  /** A raw request, so that Host and Origin are what the test says (fetch sets Host itself). */
  const send = (url: string, path: string, headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const target = new URL(url);
      const req = httpRequest(
        { host: target.hostname, port: target.port, path, method: "POST", headers },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end("{}");
    });

  it("refuses a foreign Host (DNS rebinding) and a foreign Origin (a page's POST), answers loopback and the configured name", async () => {
    const emulator = await startEmulator({ port: 0, speed: 0, controlHosts: ["emulator.test"] });
    try {
      const port = new URL(emulator.url).port;
      const json = { "content-type": "application/json" };
      expect(
        await send(emulator.url, "/_emulator/reset", { ...json, host: `rebound.attacker.example:${port}` }),
      ).toBe(403);
      expect(
        await send(emulator.url, "/_emulator/reset", {
          ...json,
          host: `127.0.0.1:${port}`,
          origin: "https://attacker.example",
        }),
      ).toBe(403);
      expect(
        await send(emulator.url, "/_emulator/reset", { ...json, host: `127.0.0.1:${port}`, origin: "null" }),
      ).toBe(403);
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `emulator.test:${port}`])
        expect(await send(emulator.url, "/_emulator/reset", { ...json, host }), host).toBe(200);
      expect(
        await send(emulator.url, "/_emulator/reset", {
          ...json,
          host: `localhost:${port}`,
          origin: `http://localhost:${port}`,
        }),
      ).toBe(200);
    } finally {
      await emulator.close();
    }
  });

  it("the API refuses a foreign Host too (DNS rebinding), and answers loopback and the configured name", async () => {
    const emulator = await startEmulator({ port: 0, speed: 0, controlHosts: ["emulator.test"] });
    try {
      const port = new URL(emulator.url).port;
      const fixtures = (await (await fetch(`${emulator.url}/_emulator/fixtures`)).json()) as {
        tokens: { org: string };
      };
      const headers = { "content-type": "application/json", authorization: `Bearer ${fixtures.tokens.org}` };
      const path = "/v1/projects/platform-web/jobs/migrate/runs";
      const runs = async () =>
        (
          (await (
            await fetch(`${emulator.url}${path}`, { headers: { authorization: headers.authorization } })
          ).json()) as { data: { runs: unknown[] } }
        ).data.runs.length;
      const before = await runs();
      expect(await send(emulator.url, path, { ...headers, host: `rebound.attacker.example:${port}` })).toBe(
        403,
      );
      expect(await runs()).toBe(before);
      for (const host of [`127.0.0.1:${port}`, `emulator.test:${port}`])
        expect(await send(emulator.url, path, { ...headers, host }), host).toBe(200);
      expect(await runs()).toBe(before + 2);
    } finally {
      await emulator.close();
    }
  });

  it("warns on stderr that the control plane has no token when bound beyond loopback", async () => {
    const bin = fileURLToPath(new URL("../bin/cwp-emulator.js", import.meta.url));
    const child = spawn(process.execPath, [bin, "--port", "0", "--host", "0.0.0.0"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk) => {
      stderr += chunk;
    });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    expect((await lines.next()).value).toMatch(/^cwp-emulator listening on http:\/\/0\.0\.0\.0:\d+$/);
    // The token line comes after the warning, from the fixtures read on loopback.
    for (let i = 0; i < 3; i += 1) await lines.next();
    child.kill("SIGTERM");
    await once(child, "exit");
    expect(stderr).toContain("The control plane (/_emulator/*) has no token");
  });
});

describe("a scaled world", () => {
  it("has the teams, projects and billed resources asked for, in the fixtures, the lists and the billing", async () => {
    const scaled = await startEmulator({
      port: 0,
      speed: 0,
      scale: { teams: 5, projectsPerTeam: 4, resourcesPerProject: 12 },
    });
    const f = (await (await fetch(`${scaled.url}/_emulator/fixtures`)).json()) as typeof fixtures & {
      teams: unknown[];
    };
    expect(f.teams).toHaveLength(5);
    expect(f.projects).toHaveLength(20);
    const client = createClient({ baseUrl: scaled.url, token: f.tokens.org! });
    const now = Math.floor(Date.now() / 3_600_000) * 3600;
    const usage = await client.billing.listUsage({
      granularity: "total",
      startTime: now - 30 * 86_400,
      endTime: now,
    });
    const projects = usage.data.usage[0]?.paas.teams?.flatMap((t) => t.projects ?? []) ?? [];
    expect(projects).toHaveLength(16); // the organisation's 4 teams; labs has its own billing
    for (const p of projects) expect(p.resources?.flatMap((r) => r.items)).toHaveLength(12);
    await client.close();
    await scaled.close();
  });
});
