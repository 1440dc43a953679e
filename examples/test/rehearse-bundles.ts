import { mkdir, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { machineClock, type RunResult, readActionYml, runBundle } from "@cwp/action-testing";
import {
  type ActionShape,
  type JobRecord,
  Masks,
  OUR_ACTIONS,
  ProcessGroups,
  type RehearsalEvent,
  readWorkflow,
  rehearseJob,
  scriptRunner,
} from "@cwp/workflow-rehearsal";

// The tests' rehearsal: one job of a workflow file through @cwp/workflow-rehearsal (what
// `cwp rehearse` runs too), each step of ours running that action's committed bundle as the
// runner does. What the job does is then checked against the emulator.

export interface Rehearsal {
  workflow: string;
  job: string;
  event: RehearsalEvent;
  secrets?: Record<string, string>;
  vars?: Record<string, string>;
  /** The folder of our actions: `acme/cwp/actions/<name>@v1` runs `<actionsDir>/<name>`. */
  actionsDir: string;
  /** Text replaced in every value a step of ours gets, e.g. the examples' API URL by the emulator's. */
  replace?: Record<string, string>;
  /** More environment for every step (GITHUB_API_URL of a GitHub stand-in). */
  env?: Record<string, string>;
  /** The workflow's token (`github.token`). */
  token?: string;
  /** Run the `run:` steps with bash (as `cwp rehearse --run-shell`), with `env` too; default: read them. */
  runScripts?: boolean;
}

export type { JobRecord };

const REPOSITORY = "acme/shop";

/** Our actions' inputs and outputs, from their action.yml files. */
async function shapesOf(actionsDir: string): Promise<Record<string, ActionShape>> {
  const entries = await Promise.all(
    OUR_ACTIONS.map(async (name) => {
      const yml = await readActionYml(join(actionsDir, name));
      return [name, { inputs: yml.inputs ?? {}, outputs: Object.keys(yml.outputs ?? {}) }] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** The job rehearsed (its first matrix combination, for a matrix job; the examples have none). */
export async function rehearse(r: Rehearsal): Promise<JobRecord<RunResult>> {
  const workflow = await readWorkflow(await readFile(r.workflow, "utf8"), r.workflow);
  const replaced = (map: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(map).map(([k, v]) => [
        k,
        Object.entries(r.replace ?? {}).reduce((t, [from, to]) => t.split(from).join(to), v),
      ]),
    );
  // One RUNNER_TEMP for the job, as a runner has it: what a step writes there, the next reads.
  // The scripts run there too (the examples' scripts read nothing of the repository).
  const temp = await mkdtemp(join(tmpdir(), "cwp-rehearsal-job-"));
  const folders = {
    workspace: temp,
    temp,
    home: join(temp, "home"),
    toolCache: join(temp, "tool-cache"),
  };
  for (const folder of [folders.home, folders.toolCache]) await mkdir(folder);
  const groups = new ProcessGroups();
  const runScript = scriptRunner({
    event: r.event,
    folders,
    masks: new Masks(),
    onLine: () => {},
    groups,
  });
  const [record] = await rehearseJob(
    {
      workflow,
      event: r.event,
      repository: REPOSITORY,
      workspace: dirname(r.workflow),
      temp,
      ...(r.secrets ? { secrets: r.secrets } : {}),
      ...(r.vars ? { vars: r.vars } : {}),
      ...(r.token !== undefined ? { token: r.token } : {}),
      actions: await shapesOf(r.actionsDir),
      runStep: (step) =>
        runBundle(join(r.actionsDir, step.action), {
          inputs: replaced(step.inputs),
          env: { ...replaced(step.env), ...r.env, RUNNER_TEMP: temp },
          event: r.event,
        }),
      endJob: () => groups.endAll(),
      ...(r.runScripts
        ? {
            // The machine's clock as the bundles have it (runBundle): a script's `date` and the
            // step after it agree on what day it is, under `pnpm test:at` too.
            runScript: (step) => runScript({ ...step, env: { ...machineClock(), ...step.env, ...r.env } }),
          }
        : {}),
    },
    r.job,
  );
  if (!record) throw new Error(`${r.workflow}: job ${r.job} has no run`);
  return record;
}
