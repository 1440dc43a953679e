import { fileURLToPath } from "node:url";
import type { ContractSpec } from "@cwp/action-testing";

// What trigger-build tells the shared contracts about itself. Each contract is a test file of its own
// (runner-contract, odd-answers, deployments), so that vitest runs them side by side.

export const BUILD = "/v1/projects/platform-web/services/web/build";

export const spec: ContractSpec = {
  actionDir: fileURLToPath(new URL("..", import.meta.url)),
  inputs: { "project-id": "platform-web", "service-id": "web", branch: "main" },
  outcome: "build",
  start: { method: "POST", path: BUILD },
  poll: `${BUILD}/`,
  answers: {
    unread: ["pullRequestId", "createdAt", "message", "buildConcludedAt"],
    status: "status",
    running: { status: "BUILDING", concluded: false, success: false },
  },
  abort: {
    method: "DELETE",
    path: /^\/v1\/projects\/platform-web\/services\/web\/build\/[a-z]+-[a-z]+-\d+$/,
  },
  outputs: {
    success: {
      "build-id": /^[a-z]+-[a-z]+-\d{4}$/,
      status: "SUCCESS",
      concluded: "true",
      success: "true",
      image: /^registry\./,
      sha: /^[0-9a-f]{40}$/,
      branch: "main",
    },
    failure: { status: "FAILURE", concluded: "true", success: "false", image: "" },
  },
  logs: { path: "/v1/projects/platform-web/services/web/build-logs" },
  malformed: [
    { inputs: { "project-id": "" }, input: "project-id" },
    { inputs: { "service-id": "web/../x" }, input: "service-id" },
    { inputs: { sha: "abc123" }, input: "sha" },
    { inputs: { "pull-request-id": "12", branch: "main" }, input: "pull-request-id" },
    { inputs: { "pull-request-id": "twelve", branch: "" }, input: "pull-request-id" },
    { inputs: { "build-arguments": "JUST-A-KEY" }, input: "build-arguments" },
    { inputs: { "dockerfile-path": "Dockerfile" }, input: "dockerfile-path" },
  ],
  secrets: {
    inputs: {
      "build-arguments": '{"NPM_TOKEN": "npm_s3cr3t_value", "SENTRY_DSN": "https://k3y@sentry.example/1"}',
    },
    values: ["npm_s3cr3t_value", "https://k3y@sentry.example/1"],
  },
};
