import * as core from "@actions/core";
import type { z } from "zod";
import { onCancel } from "../engine/cancellation.js";
import { useHost } from "../engine/host.js";
import { type ActionDefinition, runWork } from "../engine/run-work.js";
import { mask, onMasked } from "../engine/secrets.js";
import { githubHost } from "./host.js";

/**
 * Masks every token input (`api-token`, `github-token`, any `*-token`) and `CWP_API_TOKEN`
 * straight from the environment, before inputs are even parsed, so that no message can show them.
 */
function maskTokensFromEnvironment(): void {
  for (const [name, value] of Object.entries(process.env))
    if (/^INPUT_.*TOKEN$/.test(name) || name === "CWP_API_TOKEN") mask(value?.trim());
}

/**
 * Runs an action as the runner expects: inputs from `INPUT_<NAME>`, exit code 0 on success, 1 with
 * a clear message otherwise.
 */
export async function runAction<S extends z.ZodRawShape, T>(action: ActionDefinition<S, T>): Promise<void> {
  // Listen for the runner's cancel first, so even an early one ends the step cleanly.
  const cancel = onCancel();
  useHost(githubHost());
  onMasked((secret) => core.setSecret(secret));
  maskTokensFromEnvironment();
  await runWork(action, (name) => core.getInput(name, { trimWhitespace: false }), cancel);
}
