import { fileURLToPath } from "node:url";
import { runBundle, useTestPlatform } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";

const actionDir = fileURLToPath(new URL("..", import.meta.url));

describe("upgrade-addon: reads the addon first", () => {
  const platform = useTestPlatform();
  const base = () => ({
    ...platform.connection(),
    "project-id": "platform-batch",
  });

  it("succeeds without an upgrade request when the addon already runs the version", async () => {
    await platform.reset();
    const result = await runBundle(actionDir, { inputs: { ...base(), "addon-id": "db", version: "16.4" } });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain("already runs 16.4: nothing to upgrade");
    expect((await platform.requests()).filter((r) => r.method === "POST")).toEqual([]);
  });

  it("refuses an addon that is not running, unless forced", async () => {
    await platform.reset();
    const refused = await runBundle(actionDir, {
      inputs: { ...base(), "addon-id": "cache", version: "7.4.1" },
    });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(
      /::error::Addon cache is paused, not running: not upgraded. Set force: true/,
    );
    expect((await platform.requests()).filter((r) => r.method === "POST")).toEqual([]);
    const forced = await runBundle(actionDir, {
      inputs: { ...base(), "addon-id": "cache", version: "7.4.1", force: "true" },
    });
    expect(forced.code, forced.stdout).toBe(0);
    expect(forced.outputs).toMatchObject({
      "previous-version": "7.2.5",
      version: "7.4.1",
      status: "running",
    });
  });

  it("refuses a version older than the addon runs, naming both, before anything changes; allow-downgrade goes there", async () => {
    await platform.reset();
    const refused = await runBundle(actionDir, { inputs: { ...base(), "addon-id": "db", version: "15.7" } });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      '::error::Input "version": 15.7 is older than 16.4, the version addon db runs: a downgrade, not done. Give the newer version you meant, or set allow-downgrade: true to downgrade it',
    );
    const changes = async () => (await platform.requests()).filter((r) => r.method !== "GET");
    expect(await changes()).toEqual([]);
    // 16.10 is newer than 16.4, not 16.1: numbers, not text.
    expect(
      (await runBundle(actionDir, { inputs: { ...base(), "addon-id": "db", version: "16.10" } })).stdout,
    ).toMatch(/::error::.*body\.version.*versions are/);
    const downgraded = await runBundle(actionDir, {
      inputs: { ...base(), "addon-id": "db", version: "15.7", "allow-downgrade": "true" },
    });
    expect(downgraded.code, downgraded.stdout).toBe(0);
    expect(downgraded.outputs).toMatchObject({
      "previous-version": "16.4",
      version: "15.7",
      status: "running",
    });
  });

  it("fails naming the platform's refusal of an unknown version", async () => {
    await platform.reset();
    const result = await runBundle(actionDir, { inputs: { ...base(), "addon-id": "db", version: "99.0" } });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/::error::.*body.version.*versions are/);
  });
});
