import { type Scope, tokenText } from "../../expressions.js";
import { forcedOntoNode24, inputWarnings, type LocalAction } from "../../local-actions.js";
import type { LocalResult, StepRecord, StepResult } from "../../records.js";
import { MAX_COMPOSITE_DEPTH } from "../prepare-actions.js";
import type { StepRun } from "../step-handler.js";
import { runCompositeAction } from "./composite-action.js";
import { runJavaScriptAction } from "./javascript-action.js";

// A step that uses an action read from its action.yml, a local one or another repository's, run as
// the runner's ActionRunner runs it: its inputs, then its kind's handler.

/**
 * A step's inputs to an action: every `with:` key, declared or not (an undeclared one is warned of
 * and still passed, as INPUT_<NAME> and in `inputs`), and the declared ones' defaults, evaluated as
 * expressions, where not given (actions/runner src/Runner.Worker/ActionRunner.cs @00aa7757,
 * RunAsync: "Merge the default inputs from the definition").
 */
export function actionInputs(
  action: Extract<LocalAction, { inputs: unknown }>,
  given: Record<string, string>,
  scope: Scope,
): Record<string, string> {
  const inputs: Record<string, string> = { ...given };
  for (const input of action.inputs)
    if (!Object.hasOwn(inputs, input.id))
      inputs[input.id] = input.default !== undefined ? tokenText(input.default, scope) : "";
  return inputs;
}

/**
 * Runs the action a step uses, read from its folder: a composite action its steps, a JavaScript
 * action its main file (under --run-shell); a Docker action is listed as not rehearsed; one GitHub
 * cannot find or read fails the step with the runner's message. `required` is not enforced, as on
 * GitHub, only warned of.
 */
export async function runReadAction<R extends StepResult>(
  run: StepRun<R>,
  action: LocalAction,
  given: Record<string, string>,
): Promise<LocalResult> {
  const { frame, step, scope } = run;
  const uses = step.uses as string;
  const none = { outputs: {}, warnings: [] };
  // The runner's limit, the one set-up checks other repositories' composite actions against.
  if (frame.depth > MAX_COMPOSITE_DEPTH)
    return { code: 1, ...none, error: `${uses}: actions nested more than ${MAX_COMPOSITE_DEPTH + 1} deep` };
  if (action.kind === "refused") return { code: 1, ...none, error: action.message };
  if (action.kind === "docker")
    return {
      code: 0,
      ...none,
      notRehearsed: "a Docker action, which needs Docker: the rehearsal does not run it",
    };
  const warnings = inputWarnings(action.inputs, given);
  const inputs = actionInputs(action, given, scope);
  if (action.kind === "node") {
    warnings.push(...forcedOntoNode24(action.using, uses));
    return { ...(await runJavaScriptAction(run, action, inputs)), warnings };
  }
  return { ...(await runCompositeAction(run, action, inputs)), warnings };
}

/** Records how a step's action ended (what it gave, and why it was not rehearsed, if so), and gives it back. */
export function endedAction<R extends StepResult>(record: StepRecord<R>, result: LocalResult): LocalResult {
  record.local = result;
  if (result.notRehearsed !== undefined) record.notRehearsed = result.notRehearsed;
  return result;
}
