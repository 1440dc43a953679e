import { interpolate, mappingText } from "../../expressions.js";
import { ourAction } from "../../our-actions.js";
import type { StepHandler } from "../step-handler.js";
import { stepTimeoutMs } from "../timeouts.js";

/**
 * A step that uses one of our actions, run by the caller (`options.runStep`: the committed bundle
 * in the tests, `cwp <operation>` in `cwp rehearse`) with its `with:` over the expression defaults
 * of its action.yml (`${{ github.token }}`), its env and the runner's default variables, within its
 * timeout and the job's on the platform's time, which it counts.
 */
export const runOurAction: StepHandler = async ({ job, step, record, label, scope, github }) => {
  const action = ourAction(step.uses) as string;
  const { options } = job;
  const defaults = Object.fromEntries(
    Object.entries(options.actions[action]?.inputs ?? {})
      .filter(([, spec]) => typeof spec.default === "string" && spec.default.includes("${{"))
      .map(([input, spec]) => [input, interpolate(spec.default as string, scope)]),
  );
  record.kind = "ran";
  record.action = action;
  record.inputs = mappingText(step.with, scope);
  options.onStepStart?.(record);
  record.result = await job.timed("platform", stepTimeoutMs(step.timeoutMinutes, scope), (timeout) =>
    options.runStep({
      action,
      name: label,
      inputs: { ...defaults, ...record.inputs },
      env: record.env ?? {},
      variables: job.variables(github),
      timeout,
    }),
  );
  job.addSummary(record.result);
  return record.result;
};
