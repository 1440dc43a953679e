import { mappingText, tokenText } from "../../expressions.js";
import { forcedOntoNode24, inputWarnings, readLocalAction } from "../../local-actions.js";
import type { LocalResult } from "../../records.js";
import type { StepHandler } from "../step-handler.js";
import { runCompositeAction } from "./composite-action.js";
import { runJavaScriptAction } from "./javascript-action.js";

/** GitHub runs local actions nested at most this deep. */
const MAX_ACTION_DEPTH = 10;

/**
 * A step that uses a local action (`uses: ./path`), read from the workspace as the runner reads it
 * when the step is reached (`local-actions.ts`): a composite action runs its steps, a JavaScript
 * action its main file (under --run-shell), a Docker action is listed as not rehearsed; one GitHub
 * cannot find or read fails the step with the runner's message. Its inputs are every `with:` key,
 * declared or not (an undeclared one is warned of and still passed, as INPUT_<NAME> and in
 * `inputs`), and the declared ones' defaults where not given (actions/runner
 * src/Runner.Worker/ActionRunner.cs @00aa7757, RunAsync: "Merge the default inputs from the
 * definition"); `required` is not enforced, as on GitHub, only warned of.
 */
export const runLocalAction: StepHandler = async (run) => {
  const { job, frame, step, record, scope } = run;
  const uses = step.uses as string;
  record.kind = "local";
  record.action = uses;
  const given = mappingText(step.with, scope);
  record.inputs = given;
  job.options.onStepStart?.(record);
  const none = { outputs: {}, warnings: [] };
  const ended = (result: LocalResult) => {
    record.local = result;
    if (result.notRehearsed !== undefined) record.notRehearsed = result.notRehearsed;
    return result;
  };
  if (frame.depth >= MAX_ACTION_DEPTH)
    return ended({
      code: 1,
      ...none,
      error: `${uses}: local actions nested more than ${MAX_ACTION_DEPTH} deep`,
    });
  const action = await readLocalAction(job.options.workspace, uses);
  if (action.kind === "refused") return ended({ code: 1, ...none, error: action.message });
  if (action.kind === "docker")
    return ended({ code: 0, ...none, notRehearsed: "a Docker action, which the rehearsal does not run" });
  const warnings = inputWarnings(action.inputs, given);
  const inputs: Record<string, string> = { ...given };
  for (const input of action.inputs)
    if (!Object.hasOwn(inputs, input.id))
      inputs[input.id] = input.default !== undefined ? tokenText(input.default, scope) : "";
  if (action.kind === "node") {
    warnings.push(...forcedOntoNode24(action.using, uses));
    return ended({ ...(await runJavaScriptAction(run, action, inputs)), warnings });
  }
  return ended({ ...(await runCompositeAction(run, action, inputs)), warnings });
};
