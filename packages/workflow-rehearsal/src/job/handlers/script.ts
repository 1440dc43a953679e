import { tokenText } from "../../expressions.js";
import type { StepHandler } from "../step-handler.js";
import { stepTimeoutMs } from "../timeouts.js";

/**
 * A `run:` step, where the caller runs scripts (`options.runScript`, `cwp rehearse --run-shell`):
 * its script, shell and working directory evaluated (its own, else `defaults.run`'s), within its
 * timeout; what it wrote to GITHUB_ENV and GITHUB_PATH holds for the steps after it.
 */
export const runScript: StepHandler = async ({ job, frame, step, record, label, scope, github }) => {
  const runScript = job.options.runScript;
  if (!runScript) throw new Error("a run: step is run only where the caller runs scripts");
  const setting = (own: typeof step.workingDirectory, fallback: typeof step.workingDirectory) =>
    own !== undefined
      ? tokenText(own, scope)
      : fallback !== undefined
        ? tokenText(fallback, scope)
        : undefined;
  record.kind = "script";
  const shell = step.shell ?? setting(undefined, frame.defaults.shell);
  if (shell !== undefined) record.shell = shell;
  job.options.onStepStart?.(record);
  const workingDirectory = setting(step.workingDirectory, frame.defaults.workingDirectory);
  const result = await job.timed("machine", stepTimeoutMs(step.timeoutMinutes, scope), (timeout) =>
    runScript({
      name: label,
      script: tokenText(step.run, scope),
      env: record.env ?? {},
      path: [...job.path],
      ...(shell !== undefined ? { shell } : {}),
      ...(workingDirectory !== undefined ? { workingDirectory } : {}),
      variables: job.variables(github),
      debug: job.debug,
      // Said once a job: by the first script after the setup step.
      toolsAsked: job.toolsAsked.splice(0),
      timeout,
    }),
  );
  record.script = result;
  job.applyFiles(frame, result);
  return result;
};
