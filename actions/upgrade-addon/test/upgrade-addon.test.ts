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

  it("fails naming the platform's refusal of an unknown version", async () => {
    await platform.reset();
    const result = await runBundle(actionDir, { inputs: { ...base(), "addon-id": "db", version: "99.0" } });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/::error::.*body.version.*versions are/);
  });
});
