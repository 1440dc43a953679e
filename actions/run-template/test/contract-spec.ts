import { fileURLToPath } from "node:url";
import type { ContractSpec } from "@cwp/action-testing";

// What run-template tells the shared contracts about itself. Each contract is a test file of its own
// (runner-contract, odd-answers, deployments), so that vitest runs them side by side.

export const RUNS = "/v1/templates/release/runs";

export const spec: ContractSpec = {
  actionDir: fileURLToPath(new URL("..", import.meta.url)),
  inputs: { "template-id": "release", arguments: "version: 1.2.3\nenvironment: production" },
  outcome: "templateRun",
  start: { method: "POST", path: RUNS },
  poll: `${RUNS}/`,
  answers: {
    // A template not synced to Git has no gitops; the action node's shapes are not documented.
    unread: [
      "templateId",
      "name",
      "description",
      "apiVersion",
      "options",
      "arguments",
      "gitops",
      "$schema",
      "spec",
      "createdAt",
      "updatedAt",
    ],
    status: "status",
    running: { status: "running", concluded: false },
  },
  abort: { method: "POST", path: /^\/v1\/templates\/release\/runs\/tr-[0-9a-f]+\/abort$/ },
  outputs: {
    success: { "run-id": /^tr-/, status: "success", concluded: "true" },
    failure: { status: "failure", concluded: "true" },
  },
  malformed: [
    { inputs: { "template-id": "" }, input: "template-id" },
    { inputs: { arguments: "[1, 2, 3]" }, input: "arguments" },
    { inputs: { arguments: "{not json" }, input: "arguments" },
    // Nested past what sending it could walk: refused, not a crash ("Maximum call stack size exceeded").
    { inputs: { arguments: `{"a":${"[".repeat(40_000)}${"]".repeat(40_000)}}` }, input: "arguments" },
    { inputs: { arguments: `a: ${"[".repeat(100)}${"]".repeat(100)}` }, input: "arguments" },
    { inputs: { arguments: `a: ${"[".repeat(40_000)}${"]".repeat(40_000)}` }, input: "arguments" },
  ],
};
