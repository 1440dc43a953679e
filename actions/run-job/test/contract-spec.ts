import { fileURLToPath } from "node:url";
import type { ContractSpec } from "@cwp/action-testing";

// What run-job tells the shared contracts about itself. Each contract is a test file of its own
// (runner-contract, odd-answers, deployments), so that vitest runs them side by side.

export const RUNS = "/v1/projects/platform-web/jobs/migrate/runs";

export const spec: ContractSpec = {
  actionDir: fileURLToPath(new URL("..", import.meta.url)),
  inputs: { "project-id": "platform-web", "job-id": "migrate" },
  outcome: "jobRun",
  start: { method: "POST", path: RUNS },
  poll: `${RUNS}/`,
  answers: {
    unread: ["startedAt", "concludedAt", "active", "succeeded", "failed", "backoffLimit", "completions"],
    status: "status",
    running: { status: "RUNNING", concluded: false },
  },
  abort: { method: "DELETE", path: /^\/v1\/projects\/platform-web\/jobs\/migrate\/runs\/[0-9a-f-]{36}$/ },
  outputs: {
    success: { "run-id": /^[0-9a-f-]{36}$/, "run-name": /^migrate-/, status: "SUCCESS", concluded: "true" },
    failure: { status: "FAILED", concluded: "true" },
  },
  logs: { path: "/v1/projects/platform-web/jobs/migrate/logs" },
  malformed: [
    { inputs: { "job-id": "" }, input: "job-id" },
    { inputs: { "runtime-environment": "BAD KEY=1" }, input: "runtime-environment" },
    { inputs: { "runtime-environment": '{"A": 1}' }, input: "runtime-environment" },
    { inputs: { "runtime-environment": '{"A": "1", "A": "2"}' }, input: "runtime-environment" },
    { inputs: { "runtime-environment": "A=1\nA=2" }, input: "runtime-environment" },
    { inputs: { "runtime-environment": "__proto__=x" }, input: "runtime-environment" },
    { inputs: { image: "ghcr.io/acme/app:1", "build-service-id": "image-builder" }, input: "image" },
    { inputs: { image: "not an image!" }, input: "image" },
    { inputs: { "build-service-id": "image-builder", "build-sha": "abc" }, input: "build-sha" },
    { inputs: { entrypoint: "/bin/sh" }, input: "entrypoint" },
    { inputs: { "deployment-plan": "x" }, input: "deployment-plan" },
  ],
  secrets: {
    inputs: { "runtime-environment": "DB-PASSWORD=hunter2-very-secret\nAPI.KEY=sk_live_0123" },
    values: ["hunter2-very-secret", "sk_live_0123"],
  },
};
