import { spawn } from "node:child_process";
import { once } from "node:events";
import { machineEnv, startOtherSite } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { EXIT_CODES } from "../src/exit-codes.js";
import { BIN, BUILD, cwp, env, platform, useCliHarness } from "./cli-harness.js";

useCliHarness();

// `cwp <operation>`: connection mistakes said before anything is sent (cli-harness.ts runs it).

describe("cwp: connection mistakes, said before anything is sent", () => {
  it("reports a missing token and a missing URL together", async () => {
    const result = await cwp([...BUILD], { env: { CWP_API_TOKEN: "", CWP_API_URL: "" } });
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr).toContain("--api-token: is required");
    expect(result.stderr).toContain("--api-url: is required");
    expect(await platform.requests()).toEqual([]);
  });

  it("says a URL that already ends in /v1 is one /v1 too many", async () => {
    const result = await cwp([...BUILD], { env: { CWP_API_URL: `${platform.url}/v1/` } });
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr).toContain("--api-url: must be the API's base URL, without the /v1 at its end");
    expect(await platform.requests()).toEqual([]);
  });

  it("says https against the emulator's plain http is the wrong scheme, naming the URL to use; nothing started", async () => {
    const http = new URL(platform.url);
    const result = await cwp([...BUILD], { env: { CWP_API_URL: `https://${http.host}` } });
    expect(result.code).toBe(EXIT_CODES.failed);
    expect(result.stderr).toContain(`speaks plain http, not https; is the API URL http://${http.host}?`);
    expect(result.stderr).toContain("no connection was made");
    expect(await platform.requests()).toEqual([]);
  });

  const PAGE = "<!doctype html><title>Acme</title><p>Welcome";
  it.each([
    ["200 with a web page", 200, { "content-type": "text/html" }, PAGE],
    ["302 to a login page", 302, { location: "https://login.example.com/sso" }, PAGE],
    ["405", 405, { "content-type": "text/html" }, PAGE],
    ["404 with a web page", 404, { "content-type": "text/html; charset=utf-8" }, PAGE],
    // Another product's JSON API: every answer of ours has "data" (the spec, §1).
    ["200 with another API's JSON", 200, { "content-type": "application/json" }, '{"ok": true, "items": []}'],
  ] as const)(
    "says a URL that answers %s is not the API, to check the URL; nothing started, never 'outcome unknown'",
    async (_, status, headers, answer) => {
      const site = await startOtherSite(status, headers, answer);
      const { url } = site;
      try {
        const result = await cwp([...BUILD], { env: { CWP_API_URL: url } });
        expect(result.code).toBe(EXIT_CODES.failed);
        expect(result.stderr).toContain(
          `${url} is not the API: check the API URL (api-url / CWP_API_URL). Nothing was started there`,
        );
        expect(result.stderr).not.toMatch(/outcome is unknown|may have acted/);
        // --json says the same, and no build.
        const json = await cwp([...BUILD, "--json"], { env: { CWP_API_URL: url } });
        expect(json.code).toBe(EXIT_CODES.failed);
        expect(JSON.parse(json.stdout.trim())).toMatchObject({
          "build-id": null,
          error: { message: expect.stringContaining(`${url} is not the API: check the API URL`) },
        });
      } finally {
        site.close();
      }
    },
  );

  it("says where the wait stands from its start, before a first poll that history puts minutes away", async () => {
    // Three builds of 10 minutes (a plan needs three: MIN_HISTORY, the client's waiting/schedule.ts),
    // and a timeout past the plan's first poll: that poll is minutes in. (With two, or a timeout
    // before it, the first poll went at once, and the test raced it: red once on a loaded machine.)
    for (let i = 0; i < 3; i++) {
      await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 600 });
      expect((await cwp([...BUILD, "--wait", "false"])).code).toBe(0);
    }
    await platform.control("POST", "clock", { advanceSeconds: 1200 });
    await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 36_000 });
    await platform.control("DELETE", "requests");
    // In a terminal (a pseudo-terminal from `script`), the wait's line is drawn as it begins.
    const command = [process.execPath, BIN, ...BUILD, "--timeout", "30m"].map((w) => `'${w}'`).join(" ");
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      env: { ...machineEnv(), HOME: process.env.HOME ?? "/tmp", TERM: "xterm", ...env() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const begun = Date.now();
    const drawn = new Promise<number>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk;
        if (/\[0s\] build \S+ of service web in project platform-web: \w+/.test(out)) resolve(Date.now());
      });
    });
    const at = await Promise.race([drawn, new Promise<number>((r) => setTimeout(() => r(-1), 15_000))]);
    const reads = (await platform.requests()).filter(
      (r) => r.method === "GET" && /\/build\/[^/]+$/.test(r.path),
    );
    child.kill("SIGINT");
    await once(child, "close");
    expect(at, out).toBeGreaterThan(0);
    expect(at - begun).toBeLessThan(10_000);
    // Drawn before the first poll: no read of the build had been made.
    expect(reads).toEqual([]);
  });

  it("names the input and the value of a wrong project or service id (a 404 on the resource)", async () => {
    const project = await cwp([
      "trigger-build",
      "--project-id",
      "no-such-project",
      "--service-id",
      "web",
      "--branch",
      "main",
    ]);
    expect(project.code).toBe(EXIT_CODES.failed);
    expect(project.stderr).toContain("error: --project-id: no project `no-such-project` (");
    const service = await cwp([
      "trigger-build",
      "--project-id",
      "platform-web",
      "--service-id",
      "nope",
      "--branch",
      "main",
    ]);
    expect(service.code).toBe(EXIT_CODES.failed);
    expect(service.stderr).toContain("error: --service-id: no service `nope` in project `platform-web` (");
  });

  it("refuses an API token a header cannot carry: exit code 2 naming it, nothing sent", async () => {
    const result = await cwp(BUILD, { env: { CWP_API_TOKEN: "cwp_token\nX-Injected: 1" } });
    expect(result.code).toBe(EXIT_CODES.input);
    expect(result.stderr).toContain("error: --api-token: must be text an HTTP header can carry");
    expect(await platform.requests()).toEqual([]);
  });

  it("warns that the token travels unencrypted to plain http on another machine, not on this one", async () => {
    // 0.0.0.0 is not a loopback name, yet a connection to it stays on this machine (refused at
    // once): the warning comes before any request, and nothing leaves the machine.
    const remote = await cwp([...BUILD, "--timeout", "1s"], { env: { CWP_API_URL: "http://0.0.0.0:9" } });
    expect(remote.stderr).toContain("plain http to another machine: the API token travels unencrypted");
    const local = await cwp(BUILD);
    expect(local.code).toBe(0);
    expect(local.stderr).not.toContain("unencrypted");
  });
});
