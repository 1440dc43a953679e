import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { type RunResult, readActionYml, runBundle } from "../runner.js";
import { type Contexts, condition, interpolate, type StatusFunctions } from "./expressions.js";

// One job of a workflow file, run as written: its `if:`, its env, and each step in order with its
// own `if:`. Steps that use one of our actions (`acme/cwp/actions/<name>@v1`) run that action's
// committed bundle; other steps are only read (their expressions evaluated, so a wrong one fails
// here too) and count as passing. What the job does is then checked against the emulator.

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
interface Workflow {
  env?: Record<string, unknown>;
  jobs: Record<string, { if?: string; env?: Record<string, unknown>; steps: Step[] }>;
}

export interface Rehearsal {
  workflow: string;
  job: string;
  /** The event: its name and payload (`github.event`), and the commit and ref it is for. */
  event: { name: string; payload: Record<string, unknown>; sha: string; ref: string };
  secrets?: Record<string, string>;
  vars?: Record<string, string>;
  /** The folder of our actions: `acme/cwp/actions/<name>@v1` runs `<actionsDir>/<name>`. */
  actionsDir: string;
  /** Text replaced in every value a step gets, e.g. the examples' API URL by the emulator's. */
  replace?: Record<string, string>;
  /** More environment for every step (GITHUB_API_URL of a GitHub stand-in). */
  env?: Record<string, string>;
  /** The workflow's token (`github.token`). */
  token?: string;
}

export interface StepRecord {
  name: string;
  /** What happened: ran (one of ours), read (another action or a script), or skipped by its `if:`. */
  kind: "ran" | "read" | "skipped";
  result?: RunResult;
  inputs?: Record<string, string>;
  /** The step's environment, its expressions evaluated (what a `run:` script would see). */
  env?: Record<string, string>;
}

export interface JobRecord {
  /** false when the job's own `if:` skipped it. */
  ran: boolean;
  success: boolean;
  steps: StepRecord[];
}

const OURS = /^acme\/cwp\/actions\/([a-z-]+)@v1$/;
const REPOSITORY = "acme/shop";

export async function rehearse(r: Rehearsal): Promise<JobRecord> {
  const workflow = parseYaml(await readFile(r.workflow, "utf8")) as Workflow;
  const job = workflow.jobs[r.job];
  if (!job) throw new Error(`${r.workflow} has no job ${r.job}`);
  let failed = false;
  const status: StatusFunctions = {
    success: () => !failed,
    failure: () => failed,
    always: () => true,
    cancelled: () => false,
  };
  const steps: Record<string, { outputs: Record<string, string>; outcome: string }> = {};
  const contexts: Contexts = {
    github: {
      event: r.event.payload,
      event_name: r.event.name,
      sha: r.event.sha,
      ref: r.event.ref,
      ref_name: r.event.ref.replace(/^refs\/(heads|tags)\//, ""),
      repository: REPOSITORY,
      token: r.token ?? "",
    },
    secrets: r.secrets ?? {},
    vars: r.vars ?? {},
    steps,
    env: {},
  };
  const text = (value: unknown) =>
    Object.entries(r.replace ?? {}).reduce(
      (t, [from, to]) => t.split(from).join(to),
      interpolate(String(value), contexts, status),
    );
  const values = (map: Record<string, unknown> | undefined) =>
    Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, text(v)]));

  if (!condition(job.if, contexts, status)) return { ran: false, success: true, steps: [] };
  const env = { ...values(workflow.env), ...values(job.env) };
  contexts.env = env;
  const records: StepRecord[] = [];
  for (const [index, step] of job.steps.entries()) {
    const name = step.id ?? step.name ?? step.uses ?? `step ${index + 1}`;
    if (!condition(step.if, contexts, status)) {
      records.push({ name, kind: "skipped" });
      continue;
    }
    const stepEnv = { ...env, ...values(step.env) };
    const inputs = values(step.with);
    const ours = step.uses ? OURS.exec(step.uses)?.[1] : undefined;
    if (!ours) {
      records.push({ name, kind: "read", inputs, env: stepEnv });
      if (step.id) steps[step.id] = { outputs: {}, outcome: "success" };
      continue;
    }
    const actionDir = join(r.actionsDir, ours);
    // action.yml defaults that are expressions (`${{ github.token }}`) are the runner's to evaluate.
    const yml = await readActionYml(actionDir);
    const defaults = Object.fromEntries(
      Object.entries(yml.inputs ?? {})
        .filter(([, spec]) => typeof spec.default === "string" && spec.default.includes("${{"))
        .map(([input, spec]) => [input, text(spec.default)]),
    );
    const result = await runBundle(actionDir, {
      inputs: { ...defaults, ...inputs },
      env: { ...stepEnv, ...r.env },
      event: r.event,
    });
    records.push({ name, kind: "ran", result, inputs, env: stepEnv });
    if (result.code !== 0) failed = true;
    if (step.id)
      steps[step.id] = { outputs: result.outputs, outcome: result.code === 0 ? "success" : "failure" };
  }
  return { ran: true, success: !failed, steps: records };
}
