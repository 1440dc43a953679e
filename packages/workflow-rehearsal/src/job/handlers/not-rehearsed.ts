import { mappingText } from "../../expressions.js";
import { toolAsked } from "../../runner/tools.js";
import type { StepHandler } from "../step-handler.js";

/**
 * A step the rehearsal only reads: another's action, a Docker action, or a `run:` step where
 * scripts are not run. It counts as passed; what it would set is unknown where it is read.
 */
export const readOnly: StepHandler = async ({ job, step, record, scope }) => {
  record.notRehearsed = whyNot(step.run !== undefined, step.uses ?? "", job.options.runScript !== undefined);
  if (step.with !== undefined) record.inputs = mappingText(step.with, scope);
  const asked = toolAsked(step.uses, record.inputs ?? {});
  if (asked) job.toolsAsked.push(asked);
  return undefined;
};

function whyNot(isScript: boolean, uses: string, runsScripts: boolean): string {
  if (isScript) return runsScripts ? "a run: step, not run" : "a run: step, which runs only with --run-shell";
  if (uses.startsWith("docker://"))
    return "a Docker action, which needs Docker: the rehearsal does not run it";
  return "another's action, which the rehearsal does not run";
}
