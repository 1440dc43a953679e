import { mappingText } from "../../expressions.js";
import { readLocalAction } from "../../local-actions.js";
import type { StepHandler } from "../step-handler.js";
import { endedAction, runReadAction } from "./action.js";

/**
 * A step that uses a local action (`uses: ./path`), read from the workspace as the runner reads it
 * when the step is reached (`local-actions.ts`), then run as any action is (`action.ts`). Its
 * `runs.pre` is never run.
 */
export const runLocalAction: StepHandler = async (run) => {
  const { job, step, record, scope } = run;
  record.kind = "local";
  record.action = step.uses as string;
  const given = mappingText(step.with, scope);
  record.inputs = given;
  job.options.onStepStart?.(record);
  return endedAction(
    record,
    await runReadAction(run, await readLocalAction(job.options.workspace, record.action), given),
  );
};
