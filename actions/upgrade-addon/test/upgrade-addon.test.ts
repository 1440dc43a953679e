import { fileURLToPath } from "node:url";
import { runBundle, runnerContract, useTestPlatform } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";

const actionDir = fileURLToPath(new URL("..", import.meta.url));
const ADDON = "/v1/projects/platform-web/addons/db";

runnerContract({
  actionDir,
  inputs: { "project-id": "platform-web", "addon-id": "db", version: "17.0" },
  outcome: "addonUpgrade",
  start: { method: "POST", path: `${ADDON}/version`, idempotent: true },
  poll: ADDON,
  answers: {
    unread: [
      "uid",
      "name",
      "appId",
      "stageId",
      "tags",
      "description",
      "createdAt",
      "cluster",
      "spec.type",
      "spec.pendingActions",
    ],
    status: "status",
    readsBeforeStart: 1,
  },
  outputs: {
    success: { "previous-version": "16.4", version: "17.0", status: "running" },
    failure: { "previous-version": "16.4", version: "16.4", status: "failed" },
  },
  malformed: [
    { inputs: { "addon-id": "" }, input: "addon-id" },
    { inputs: { version: "" }, input: "version" },
    { inputs: { force: "yes please" }, input: "force" },
  ],
});

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
