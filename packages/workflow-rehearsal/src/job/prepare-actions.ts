import { readDownloadedAction } from "../local-actions.js";
import { ourAction } from "../our-actions.js";
import type { StepResult } from "../records.js";
import { remoteUses } from "../runner/action-download.js";
import type { Step } from "../workflow.js";
import { isCheckout } from "./handlers/checkout.js";
import type { JobRun, PreparedAction } from "./job-run.js";

// Other repositories' actions, made ready as the runner makes them ready while it sets the job up,
// before its first step (actions/runner src/Runner.Worker/ActionManager.cs @0001dcd9,
// PrepareActionsAsync, "Prepare all required actions"): each downloaded and its action.yml read,
// a composite action's own steps' actions with it, nested at most the runner's depth. One GitHub
// refuses (a repository or ref that does not exist, a shortened SHA, a folder with no action.yml)
// fails the job before any step runs. One that cannot be had here (GitHub not reached) is a step
// not rehearsed, never a failure of the workflow's.

/** The runner's limit of composite actions nested (src/Runner.Common/Constants.cs, CompositeActionsMaxDepth). */
export const MAX_COMPOSITE_DEPTH = 9;

/** Whether a step's `uses` is another repository's action, which the rehearsal downloads. */
export const isOtherRepository = (uses: string | undefined): uses is string =>
  uses !== undefined && !ourAction(uses) && !isCheckout(uses) && remoteUses(uses) !== undefined;

/** The action a step uses, downloaded and read once a job run (the host's `downloadAction`). */
export function preparedAction<R extends StepResult>(job: JobRun<R>, uses: string): Promise<PreparedAction> {
  let prepared = job.actions.get(uses);
  if (!prepared) {
    prepared = prepare(job, uses);
    job.actions.set(uses, prepared);
  }
  return prepared;
}

async function prepare<R extends StepResult>(job: JobRun<R>, uses: string): Promise<PreparedAction> {
  const remote = remoteUses(uses);
  const download = job.options.downloadAction;
  if (!remote || !download)
    return { kind: "unreachable", message: "the rehearsal does not download actions" };
  const downloaded = await download(remote);
  if (downloaded.kind !== "downloaded") return downloaded;
  const action = await readDownloadedAction(downloaded.folder, uses, remote.path);
  // An action.yml the runner cannot load fails the job at set up, as one it cannot find.
  if (action.kind === "refused") return { kind: "refused", message: action.message };
  return { kind: "read", action, commit: downloaded.commit };
}

/**
 * Every action the steps use from another repository, and those their composite actions use, made
 * ready before the job's first step; the runner's words for the first one GitHub refuses, which
 * fails the job.
 */
export async function prepareJobActions<R extends StepResult>(
  job: JobRun<R>,
  steps: readonly Step[],
  depth = 0,
): Promise<string | undefined> {
  if (!job.options.downloadAction) return undefined;
  if (depth > MAX_COMPOSITE_DEPTH) return `Composite action depth exceeded max depth ${MAX_COMPOSITE_DEPTH}`;
  for (const step of steps) {
    if (!isOtherRepository(step.uses)) continue;
    const prepared = await preparedAction(job, step.uses);
    if (prepared.kind === "refused") return prepared.message;
    if (prepared.kind === "read" && prepared.action.kind === "composite") {
      const refused = await prepareJobActions(job, prepared.action.steps, depth + 1);
      if (refused !== undefined) return refused;
    }
  }
  return undefined;
}
