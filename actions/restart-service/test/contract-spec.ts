import { fileURLToPath } from "node:url";
import type { ContractSpec } from "@cwp/action-testing";

// What restart-service tells the shared contracts about itself. Each contract is a test file of its own
// (runner-contract, odd-answers, deployments), so that vitest runs them side by side.

export const SERVICE = "/v1/projects/platform-web/services/web";

export const spec: ContractSpec = {
  actionDir: fileURLToPath(new URL("..", import.meta.url)),
  inputs: { "project-id": "platform-web", "service-id": "web" },
  outcome: "restart",
  start: { method: "POST", path: `${SERVICE}/restart` },
  poll: SERVICE,
  answers: {
    unread: ["uid", "name", "status.build", "status.deployment.reason"],
    status: "status.deployment.status",
    readsBeforeStart: 1,
  },
  outputs: {
    success: { status: "COMPLETED", "restarted-at": /^\d{4}-\d\d-\d\dT/ },
    failure: { status: "FAILED" },
  },
  malformed: [
    { inputs: { "service-id": "", "harness-id": "" }, input: "service-id" },
    { inputs: { "harness-id": "devbox" }, input: "service-id" },
    { inputs: { "acknowledge-active-sessions": "true" }, input: "acknowledge-active-sessions" },
  ],
};
