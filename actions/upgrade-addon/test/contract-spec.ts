import { fileURLToPath } from "node:url";
import type { ContractSpec } from "@cwp/action-testing";

// What upgrade-addon tells the shared contracts about itself. Each contract is a test file of its own
// (runner-contract, odd-answers, deployments), so that vitest runs them side by side.

export const ADDON = "/v1/projects/platform-web/addons/db";

export const spec: ContractSpec = {
  actionDir: fileURLToPath(new URL("..", import.meta.url)),
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
};
