import * as core from "@actions/core";
import type { z } from "zod";
import { onCancel } from "../engine/cancellation.js";
import { useHost } from "../engine/host.js";
import { type ActionDefinition, runWork } from "../engine/run-work.js";
import { onMasked } from "../engine/secrets.js";
import type { Recorder } from "../engine/work-record.js";
import { githubHost } from "./host.js";

/**
 * Runs an action as the runner expects: inputs from `INPUT_<NAME>`, exit code 0 on success, 1 with
 * a clear message otherwise; `recorder` keeps a record of the work on GitHub (Deployments).
 */
export async function runAction<S extends z.ZodRawShape, T>(
  action: ActionDefinition<S, T>,
  recorder?: Recorder,
): Promise<void> {
  // Listen for the runner's cancel first, so even an early one ends the step cleanly.
  const cancel = onCancel();
  useHost(githubHost());
  onMasked((secret) => core.setSecret(secret));
  await runWork(action, (name) => core.getInput(name, { trimWhitespace: false }), cancel, recorder);
}
