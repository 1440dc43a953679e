import { type ActionDefinition, inputsOf } from "@cwp/action-kit/engine";
import { definition as fetchLogs } from "@cwp/fetch-logs/definition";
import { definition as restartService } from "@cwp/restart-service/definition";
import { definition as restoreBackup } from "@cwp/restore-backup/definition";
import { definition as runJob } from "@cwp/run-job/definition";
import { definition as runTemplate } from "@cwp/run-template/definition";
import { definition as triggerBuild } from "@cwp/trigger-build/definition";
import { definition as upgradeAddon } from "@cwp/upgrade-addon/definition";
import { definition as usageReport } from "@cwp/usage-report/definition";
import actions from "./actions.generated.json" with { type: "json" };

// The eight operations: each action's own definition (its start logic, written once in its
// main.ts) and its action.yml (inputs, their help and defaults), under the action's name.

export interface InputSpec {
  description: string;
  required: boolean;
  default?: string;
}

export interface ActionMetadata {
  description: string;
  inputs: Record<string, InputSpec>;
  outputs: Record<string, string>;
}

// biome-ignore lint/suspicious/noExplicitAny: definitions differ in their inputs and resources.
type AnyDefinition = ActionDefinition<any, any>;

export const OPERATIONS: Record<string, { definition: AnyDefinition; metadata: ActionMetadata }> =
  Object.fromEntries(
    (
      [
        ["trigger-build", triggerBuild],
        ["run-job", runJob],
        ["run-template", runTemplate],
        ["upgrade-addon", upgradeAddon],
        ["restore-backup", restoreBackup],
        ["restart-service", restartService],
        ["fetch-logs", fetchLogs],
        ["usage-report", usageReport],
      ] as Array<[string, AnyDefinition]>
    ).map(([name, definition]) => [
      name,
      { definition, metadata: ownMetadata((actions as Record<string, ActionMetadata>)[name], definition) },
    ]),
  );

/** Every input each action's action.yml declares, those only a GitHub runner acts on among them. */
export const ACTION_INPUTS: Record<string, string[]> = Object.fromEntries(
  Object.entries(actions as Record<string, ActionMetadata>).map(([name, metadata]) => [
    name,
    Object.keys(metadata.inputs),
  ]),
);

/**
 * An action's inputs and outputs less those only a GitHub runner has (a GitHub deployment's): the
 * CLI records none, so it offers no flag that would be ignored.
 */
function ownMetadata(metadata: ActionMetadata | undefined, definition: AnyDefinition): ActionMetadata {
  if (!metadata) throw new Error(`no action.yml metadata for ${definition.name}`);
  const inputs = Object.keys(inputsOf(definition).shape);
  const outputs = Object.keys(definition.outputs);
  return {
    description: metadata.description,
    inputs: Object.fromEntries(Object.entries(metadata.inputs).filter(([name]) => inputs.includes(name))),
    outputs: Object.fromEntries(Object.entries(metadata.outputs).filter(([name]) => outputs.includes(name))),
  };
}

/**
 * The environment variable `cwp rehearse` hands a step's inputs through (a JSON object of input
 * names to text), as a runner hands them through INPUT_*: not on the command line, where any
 * process on the machine can read a secret among them. A flag given too wins.
 */
export const REHEARSAL_INPUTS = "CWP_REHEARSAL_INPUTS";
