import { fileURLToPath } from "node:url";
import { runBundle, useTestPlatform } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { SERVICE } from "./contract-spec.js";

const actionDir = fileURLToPath(new URL("..", import.meta.url));

describe("restart-service: harnesses", () => {
  const platform = useTestPlatform();
  const base = () => ({
    ...platform.connection(),
    "project-id": "platform-web",
    "harness-id": "devbox",
  });

  it("restarts a harness with active sessions only when acknowledged", async () => {
    await platform.reset();
    const refused = await runBundle(actionDir, { inputs: base() });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(
      /::error::Harness devbox was not restarted: .*active session.*\. If it has active sessions, set acknowledge-active-sessions: true to restart it anyway\./,
    );
    const done = await runBundle(actionDir, { inputs: { ...base(), "acknowledge-active-sessions": "true" } });
    expect(done.code, done.stdout).toBe(0);
    expect(done.outputs.status).toBe("RESTARTED");
    const posts = (await platform.requests()).filter((r) => r.method === "POST");
    expect(posts.at(-1)?.query).toEqual({ acknowledgeActiveSessions: "true" });
  });
});

describe("restart-service: status lines", () => {
  // The clock stands still until the first status line is out, so the previous rollout's
  // COMPLETED is still what the platform shows however slowly the machine runs.
  const platform = useTestPlatform({ speed: 0 });

  it("does not report the previous rollout's COMPLETED as the restart's", async () => {
    await platform.reset();
    let printed = "";
    let advanced: Promise<unknown> | undefined;
    const result = await runBundle(actionDir, {
      inputs: {
        ...platform.connection(),
        "project-id": "platform-web",
        "service-id": "web",
      },
      onOutput: (text) => {
        printed += text;
        if (/^\[\d+s\] restart of service web/m.test(printed))
          advanced ??= platform.control("POST", "clock", { advanceSeconds: 60 });
      },
    });
    await advanced;
    expect(result.code, result.stdout).toBe(0);
    const lines = result.stdout.split("\n").filter((l) => /^\[\d+s\] restart of service web/.test(l));
    expect(lines[0]).toMatch(/waiting for the new rollout \(the previous one shows COMPLETED\)$/);
    expect(result.stdout).toMatch(/Restart of service web in project platform-web concluded COMPLETED/);
  });
});

describe("restart-service: a Date header from two days ago", () => {
  const platform = useTestPlatform();

  it("still waits for the new rollout, not the previous one's COMPLETED, and says the restart's time as the platform's", async () => {
    await platform.reset();
    await platform.control("POST", "outcomes", { kind: "restart", durationSeconds: 60 });
    const stale = new Date(Date.now() - 2 * 86_400_000).toUTCString();
    await platform.control("POST", "faults", {
      method: "POST",
      path: `${SERVICE}/restart`,
      rewrite: { headers: { date: stale } },
    });
    const result = await runBundle(actionDir, {
      inputs: { ...platform.connection(), "project-id": "platform-web", "service-id": "web" },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.outputs.status).toBe("COMPLETED");
    // restarted-at is the platform's word (logs are read on its clock); the wait does not trust it.
    expect(result.outputs["restarted-at"]).toBe(new Date(Date.parse(stale)).toISOString());
    // The new rollout was seen under way before it concluded.
    const rollout = result.stdout.indexOf(": IN_PROGRESS");
    expect(rollout).toBeGreaterThan(0);
    expect(result.stdout.indexOf("concluded COMPLETED")).toBeGreaterThan(rollout);
  });
});
