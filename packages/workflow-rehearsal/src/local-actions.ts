import { readFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { NoOperationTraceWriter } from "@actions/workflow-parser";
import {
  type ActionInputDefinition,
  type ActionOutputDefinition,
  convertActionTemplate,
  getActionSchema,
} from "@actions/workflow-parser/actions/index";
import {
  TemplateContext,
  TemplateValidationErrors,
} from "@actions/workflow-parser/templates/template-context";
import { readTemplate } from "@actions/workflow-parser/templates/template-reader";
import { YamlObjectReader } from "@actions/workflow-parser/workflows/yaml-object-reader";
import { member, type Step, stepsOf } from "./workflow.js";

// An action in the workflow's own repository (`uses: ./path`), read from the workspace with
// GitHub's own parser, as the runner reads it when the step is reached ("Metadata syntax for
// GitHub Actions", https://docs.github.com/en/actions/reference/workflows-and-actions/metadata-syntax):
// `action.yml`, else `action.yaml`; a folder with only a Dockerfile is a Docker action.

export type LocalAction =
  | {
      kind: "composite";
      /** Its folder: `github.action_path`. */
      folder: string;
      inputs: ActionInputDefinition[];
      outputs: ActionOutputDefinition[];
      steps: Step[];
    }
  | {
      kind: "node";
      folder: string;
      using: string;
      inputs: ActionInputDefinition[];
      /**
       * The files `runs.pre`, `runs.main` and `runs.post` name, in the action's folder, with
       * `pre-if` and `post-if` (default always()). The pre runs only for another repository's
       * action: the runner adds a pre step only for an action it downloads before the job, never
       * for one of the repository's own (actions/runner src/Runner.Worker/ActionManager.cs
       * @0001dcd9, PrepareActionsRecursiveAsync: "Add 'pre' execution" only where RepositoryType
       * is not self).
       */
      pre?: { file: string; if: string };
      main: string;
      post?: { file: string; if: string };
    }
  | { kind: "docker"; folder: string }
  /** Not there, or not an action GitHub would run: the step fails with this message. */
  | { kind: "refused"; message: string };

/** The local action `uses` names (`./path`), read from `workspace`. */
export async function readLocalAction(workspace: string, uses: string): Promise<LocalAction> {
  const folder = resolve(workspace, uses);
  const inside = relative(workspace, folder);
  if (inside.startsWith("..") || isAbsolute(inside))
    return {
      kind: "refused",
      message: `${uses} is outside the repository: a local action is a folder in it`,
    };
  // The runner's words for a local action it cannot find (ActionManager.cs @0001dcd9, LoadAction).
  return readActionIn(
    folder,
    uses,
    `Can't find 'action.yml', 'action.yaml' or 'Dockerfile' under '${folder}'. Did you forget to run actions/checkout before running your local action?`,
  );
}

/**
 * Another repository's action (`owner/repo/path@ref`), from `folder`, where its repository was
 * downloaded; where it is not there, the runner's words (ActionManager.cs @0001dcd9,
 * PrepareRepositoryActionAsync).
 */
export const readDownloadedAction = (folder: string, uses: string, path: string): Promise<LocalAction> =>
  readActionIn(
    join(folder, path),
    uses,
    `Can't find 'action.yml', 'action.yaml' or 'Dockerfile' for action '${uses}'.`,
  );

/** The action in `folder`: action.yml, else action.yaml, else a Dockerfile (in either case, as the runner looks). */
async function readActionIn(folder: string, uses: string, notFound: string): Promise<LocalAction> {
  for (const name of ["action.yml", "action.yaml"]) {
    const text = await readFile(join(folder, name), "utf8").catch(() => undefined);
    if (text !== undefined) return parsed(folder, join(uses, name), text);
  }
  for (const name of ["Dockerfile", "dockerfile"])
    if (await readFile(join(folder, name)).catch(() => undefined)) return { kind: "docker", folder };
  return { kind: "refused", message: notFound };
}

/**
 * The runner's root of an action file, its own schema's (actions/runner
 * src/Runner.Worker/action_yaml.json @0009633e, "action-root"): `name` and `description` are
 * optional. The parser's parseAction reads the editor's stricter root (action-root-strict), which
 * requires both: a local action without them would be refused where the runner runs it. The same
 * schema file has both roots; only the root differs.
 */
const RUNNER_ACTION_ROOT = "action-root";

/** An action file read as the runner reads it: GitHub's parser, the runner's root. */
function parseRunnerAction(file: string, text: string) {
  const context = new TemplateContext(
    new TemplateValidationErrors(),
    getActionSchema(),
    new NoOperationTraceWriter(),
  );
  const fileId = context.getFileId(file);
  const reader = new YamlObjectReader(fileId, text);
  for (const error of reader.errors) context.error(fileId, error.message, error.range);
  const value =
    reader.errors.length > 0 ? undefined : readTemplate(context, RUNNER_ACTION_ROOT, reader, fileId);
  return { context, value };
}

function parsed(folder: string, file: string, text: string): LocalAction {
  const result = parseRunnerAction(file, text);
  const errors = result.context.errors.getErrors().map((e) => e.message);
  if (errors.length > 0 || result.value === undefined)
    return { kind: "refused", message: errors.join("\n") || `${file}: not an action` };
  const template = convertActionTemplate(result.context, result.value);
  const converted = result.context.errors.getErrors().map((e) => e.message);
  if (converted.length > 0) return { kind: "refused", message: converted.join("\n") };
  const { runs } = template;
  if (runs.using === "composite")
    return {
      kind: "composite",
      folder,
      inputs: template.inputs ?? [],
      outputs: template.outputs ?? [],
      steps: stepsOf(file, `action ${file}`, runs.steps, member(member(result.value, "runs"), "steps")),
    };
  if (runs.using === "docker") return { kind: "docker", folder };
  // pre-if and post-if default to always() ("Metadata syntax", runs.pre-if, runs.post-if).
  const pre =
    runs.pre === undefined ? undefined : { file: join(folder, runs.pre), if: runs.preIf ?? "always()" };
  const post =
    runs.post === undefined ? undefined : { file: join(folder, runs.post), if: runs.postIf ?? "always()" };
  return {
    kind: "node",
    folder,
    using: runs.using,
    inputs: template.inputs ?? [],
    ...(pre ? { pre } : {}),
    main: join(folder, runs.main),
    ...(post ? { post } : {}),
  };
}

/**
 * What a step's inputs to a local action are warned of; a warning never fails the step, as on
 * GitHub. The runner's, in its words (ActionRunner's warnings): an input the action does not
 * have, and a deprecated input that is given (`deprecationMessage`). Ours: a required input
 * neither given nor defaulted, which the runner does not check
 * (https://github.com/actions/runner/issues/1070), so the action reads ''.
 */
export function inputWarnings(
  inputs: readonly ActionInputDefinition[],
  given: Record<string, string>,
): string[] {
  const warnings: string[] = [];
  const declared = inputs.map((input) => input.id);
  const unexpected = Object.keys(given).filter((name) => !declared.includes(name));
  if (unexpected.length > 0)
    warnings.push(
      `Unexpected input(s) '${unexpected.join("', '")}', valid inputs are [${declared.map((d) => `'${d}'`).join(", ")}]`,
    );
  for (const input of inputs) {
    if (Object.hasOwn(given, input.id) && input.deprecationMessage)
      warnings.push(`Input '${input.id}' has been deprecated with message: ${input.deprecationMessage}`);
    if (input.required === true && !Object.hasOwn(given, input.id) && input.default === undefined)
      warnings.push(
        `Input '${input.id}' is required but not given: GitHub's runner does not check it (https://github.com/actions/runner/issues/1070), so the action reads ''`,
      );
  }
  return warnings;
}

/**
 * What the runner says of a JavaScript action whose `using:` is older than node24: it runs it with
 * Node 24 all the same. The words are the runner's for node20 ("Deprecation of Node 20 on GitHub
 * Actions runners", https://github.blog/changelog/2025-09-19-deprecation-of-node-20-on-github-actions-runners/);
 * node12 and node16 are said alike.
 */
export function forcedOntoNode24(using: string, uses: string): string[] {
  const major = /^node(\d+)$/.exec(using)?.[1];
  if (major === undefined || Number(major) >= 24) return [];
  return [
    `Node.js ${major} is deprecated. The following actions target Node.js ${major} but are being forced to run on Node.js 24: ${uses}. For more information see: https://github.blog/changelog/2025-09-19-deprecation-of-node-20-on-github-actions-runners/`,
  ];
}
