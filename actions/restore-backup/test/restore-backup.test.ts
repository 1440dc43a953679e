import { fileURLToPath } from "node:url";
import { runBundle, useTestPlatform } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { BACKUP } from "./contract-spec.js";

const actionDir = fileURLToPath(new URL("..", import.meta.url));

describe("restore-backup: checks the backup first", () => {
  const platform = useTestPlatform();
  const base = () => ({
    ...platform.connection(),
    "project-id": "platform-web",
    "addon-id": "db",
  });

  it("refuses a backup that is not completed without restoring", async () => {
    await platform.reset();
    const result = await runBundle(actionDir, { inputs: { ...base(), "backup-id": "db-failed-1" } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("Backup db-failed-1 is failed: only completed backups can be restored");
    expect((await platform.requests()).filter((r) => r.method === "POST")).toEqual([]);
  });

  it("restores a global snapshot from another project and reports the version it restores to", async () => {
    await platform.reset();
    const result = await runBundle(actionDir, {
      inputs: {
        ...base(),
        "backup-id": "db-snapshot-1",
        "source-project-id": "platform-api",
        "source-addon-id": "db",
      },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.outputs).toMatchObject({ status: "completed", "addon-version": "15.7" });
    const [restore] = (await platform.requests()).filter((r) => r.method === "POST");
    expect(restore?.query).toEqual({ sourceProjectId: "platform-api", sourceAddonId: "db" });
  });
});

describe("restore-backup: a restore the list does not show yet", () => {
  const platform = useTestPlatform();

  it("is read again, not a failure: the list answered without its array, then a 404", async () => {
    await platform.reset();
    await platform.control("POST", "faults", [
      { method: "GET", path: `${BACKUP}/restores`, rewrite: { omit: ["data.restores"] } },
      { method: "GET", path: `${BACKUP}/restores`, status: 404 },
    ]);
    const result = await runBundle(actionDir, {
      inputs: {
        ...platform.connection(),
        "project-id": "platform-web",
        "addon-id": "db",
        "backup-id": "db-live-1",
      },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain("not listed yet");
    expect(result.outputs.status).toBe("completed");
    const restores = (await platform.requests()).filter(
      (r) => r.method === "POST" && r.path === `${BACKUP}/restore`,
    );
    expect(restores).toHaveLength(1);
  });
});
