import { mappingText } from "../../expressions.js";
import { inputWarnings, type LocalAction } from "../../local-actions.js";
import { preparedAction } from "../prepare-actions.js";
import type { StepHandler } from "../step-handler.js";
import { endedAction, runReadAction } from "./action.js";
import { readOnly } from "./not-rehearsed.js";

/**
 * Actions that talk to GitHub's Actions services (artifacts, caches) through ACTIONS_RESULTS_URL:
 * they run where the host serves them (`actionsRuntime`); without it they would fail where GitHub
 * passes, so they are listed as not rehearsed.
 */
const USES_ACTIONS_SERVICES = /^actions\/(upload-artifact|download-artifact|cache(\/save|\/restore)?)@/i;

/** An input GitHub fills with the workflow token where the step gives none: the action calls GitHub's API. */
function workflowTokenInput(action: LocalAction, given: Record<string, string>): string | undefined {
  if (action.kind !== "node" && action.kind !== "composite") return undefined;
  return action.inputs.find(
    (input) =>
      input.required === true &&
      !Object.hasOwn(given, input.id) &&
      /\bgithub\.token\b/.test(input.default?.toString() ?? ""),
  )?.id;
}

/**
 * A step that uses another repository's action (`owner/repo[/path]@ref`), downloaded while the job
 * was set up (`prepare-actions.ts`) and run as any action is (`action.ts`): a JavaScript or
 * composite action under --run-shell, at the commit its ref named. One that could not be had is
 * only read, saying why; one that needs GitHub's token runs only where the rehearsal has one.
 */
export const runRemoteAction: StepHandler = async (run) => {
  const { job, step, record, scope } = run;
  const uses = step.uses as string;
  const prepared = await preparedAction(job, uses);
  if (prepared.kind === "unreachable") {
    await readOnly(run);
    record.notRehearsed = `another repository's action, which could not be downloaded: ${prepared.message}`;
    return undefined;
  }
  record.kind = "remote";
  record.action = uses;
  const given = mappingText(step.with, scope);
  record.inputs = given;
  if (prepared.kind === "refused") {
    job.options.onStepStart?.(record);
    return endedAction(record, { code: 1, outputs: {}, warnings: [], error: prepared.message });
  }
  record.commit = prepared.commit;
  const { action } = prepared;
  const tokenInput = workflowTokenInput(action, given);
  const notRun =
    USES_ACTIONS_SERVICES.test(uses) && !job.options.actionsRuntime
      ? "it talks to GitHub's Actions services (artifacts, caches), which the rehearsal serves with --run-shell"
      : tokenInput !== undefined && !job.options.token
        ? `it calls GitHub's API with the workflow token (its input '${tokenInput}' defaults to github.token), which the rehearsal has only from --secret GITHUB_TOKEN`
        : undefined;
  if (tokenInput !== undefined && notRun === undefined)
    record.notes = [
      `its calls go to GitHub, with the token given as --secret GITHUB_TOKEN (its input '${tokenInput}')`,
    ];
  job.options.onStepStart?.(record);
  return endedAction(
    record,
    notRun === undefined
      ? await runReadAction(run, action, given)
      : {
          code: 0,
          outputs: {},
          warnings: "inputs" in action ? inputWarnings(action.inputs, given) : [],
          notRehearsed: notRun,
        },
  );
};
