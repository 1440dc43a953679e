import { fileURLToPath } from "node:url";
import { leakedSecrets, runBundle, useTestPlatform } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";

const actionDir = fileURLToPath(new URL("..", import.meta.url));

describe("run-job: what runs", () => {
  const platform = useTestPlatform();

  it("says how long the one earlier successful run took, in the singular", async () => {
    await platform.reset();
    // A job no other test runs: its history is this test's alone.
    const inputs = { ...platform.connection(), "project-id": "platform-api", "job-id": "migrate" };
    for (const _ of [1, 2])
      await platform.control("POST", "outcomes", { kind: "jobRun", durationSeconds: 2 });
    const first = await runBundle(actionDir, { inputs });
    expect(first.code, first.stdout).toBe(0);
    expect(first.stdout).not.toMatch(/successful runs? of job migrate took/);
    const second = await runBundle(actionDir, { inputs });
    expect(second.code, second.stdout).toBe(0);
    expect(second.stdout).toMatch(/The last successful run of job migrate took \d+s\./);
  });

  it("runs an external image with a custom command, or a built commit", async () => {
    await platform.reset();
    const base = {
      ...platform.connection(),
      "project-id": "platform-web",
      "job-id": "migrate",
      wait: "false",
    };
    expect(
      (
        await runBundle(actionDir, {
          inputs: {
            ...base,
            image: "ghcr.io/acme/migrate:1.4",
            "registry-credentials": "ghcr-main",
            command: "migrate up",
          },
        })
      ).code,
    ).toBe(0);
    expect(
      (
        await runBundle(actionDir, {
          inputs: { ...base, "build-service-id": "image-builder", "build-sha": "latest" },
        })
      ).code,
    ).toBe(0);
    const bodies = (await platform.requests()).filter((r) => r.method === "POST").map((r) => r.body);
    expect(bodies).toEqual([
      {
        deployment: {
          external: { imagePath: "ghcr.io/acme/migrate:1.4", credentials: "ghcr-main" },
          docker: { configType: "customCommand", customCommand: "migrate up" },
        },
      },
      { deployment: { internal: { id: "image-builder", buildSHA: "latest" } } },
    ]);
  });

  /** A run of migrate with this runtime environment (and `wait: false` unless `wait` is given). */
  const runWith = (environment: string, wait = "false") =>
    runBundle(actionDir, {
      inputs: {
        ...platform.connection(),
        "project-id": "platform-web",
        "job-id": "migrate",
        wait,
        "runtime-environment": environment,
      },
    });

  it("takes keys such as toString and constructor like any other", async () => {
    await platform.reset();
    const result = await runWith("toString=one\nconstructor=two");
    expect(result.code, result.stdout).toBe(0);
    const [start] = (await platform.requests()).filter((r) => r.method === "POST");
    expect(start?.body).toEqual({ runtimeEnvironment: { toString: "one", constructor: "two" } });
  });

  it("masks the values that can be secrets, and not 1, true or dev", async () => {
    await platform.reset();
    const result = await runWith("WORKERS=1\nDEBUG=true\nMODE=dev\nRATIO=0.75\nDB_PASSWORD=pw-9f2k-secret");
    expect(result.code, result.stdout).toBe(0);
    const masks = result.stdout.split("\n").filter((l) => l.startsWith("::add-mask::"));
    expect(masks).toContain("::add-mask::pw-9f2k-secret");
    for (const plain of ["1", "true", "dev", "0.75"]) expect(masks).not.toContain(`::add-mask::${plain}`);
  });

  it("takes DATABASE_URL-style keys (underscores) in the runtime environment, end to end", async () => {
    await platform.reset();
    const result = await runWith(
      "DATABASE_URL=postgres://app:pw-9f2k@db:5432/app\nSECRET_KEY=sk_9f2k_live",
      "true",
    );
    expect(result.code, result.stdout).toBe(0);
    const [start] = (await platform.requests()).filter((r) => r.method === "POST");
    expect(start?.body).toEqual({
      runtimeEnvironment: { DATABASE_URL: "postgres://app:pw-9f2k@db:5432/app", SECRET_KEY: "sk_9f2k_live" },
    });
    expect(leakedSecrets(result, ["sk_9f2k_live", "postgres://app:pw-9f2k@db:5432/app"])).toEqual([]);
  });
});
