import { fileURLToPath } from "node:url";
import type { ContractSpec } from "@cwp/action-testing";

// What restore-backup tells the shared contracts about itself. Each contract is a test file of its own
// (runner-contract, odd-answers, deployments), so that vitest runs them side by side.

export const BACKUP = "/v1/projects/platform-web/addons/db/backups/db-live-1";

export const spec: ContractSpec = {
  actionDir: fileURLToPath(new URL("..", import.meta.url)),
  inputs: { "project-id": "platform-web", "addon-id": "db", "backup-id": "db-live-1" },
  outcome: "restore",
  start: { method: "POST", path: `${BACKUP}/restore` },
  poll: `${BACKUP}/restores`,
  answers: {
    unread: ["restores.*.restoreTimestamp", "restores.*.completedAt"],
    status: "restores.*.status",
  },
  outputs: {
    success: { "restore-id": /^rst-/, status: "completed", "backup-size": /^\d+$/, "addon-version": "" },
    failure: { "restore-id": /^rst-/, status: "failed" },
  },
  malformed: [
    { inputs: { "backup-id": "" }, input: "backup-id" },
    { inputs: { "source-project-id": "platform-api" }, input: "source-addon-id" },
  ],
};
