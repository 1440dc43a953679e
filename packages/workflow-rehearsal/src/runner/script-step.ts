import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { createInterface } from "node:readline";
import type { RehearsalEvent } from "../contexts.js";
import type { ScriptResult, ScriptStep } from "../rehearse.js";
import { StepOutput } from "./commands.js";
import { EnvFileError, readEnvFile, readGithubEnv, readGithubPath } from "./env-files.js";
import type { Masks } from "./masks.js";
import type { ProcessGroups } from "./process-groups.js";
import type { RunnerFolders } from "./workspace.js";

// A `run:` step (`cwp rehearse --run-shell`) as a runner runs it on Linux: bash
// (`bash --noprofile --norc -eo pipefail {0}`), in the workspace copy, with a HOME, RUNNER_TEMP and
// RUNNER_TOOL_CACHE of the rehearsal's and the files a runner gives a step (GITHUB_OUTPUT,
// GITHUB_ENV, GITHUB_PATH, GITHUB_STEP_SUMMARY, GITHUB_STATE), read back with the runner's rules.
// Its output goes through the workflow commands and the masks before it is printed. It ends when
// its script ends (what it left in the background ends with the job), or at its timeout, its
// whole process group with it. Its script, which holds the step's values, is removed at once.

export interface ScriptRunnerOptions {
  event: RehearsalEvent;
  repository: string;
  folders: RunnerFolders;
  masks: Masks;
  onLine(line: string): void;
  groups: ProcessGroups;
}

export function scriptRunner(options: ScriptRunnerOptions): (step: ScriptStep) => Promise<ScriptResult> {
  const { folders } = options;
  return async (step) => {
    const files = await mkdtemp(join(folders.scripts, "step-"));
    const path = (name: string) => join(files, name);
    const script = path("script.sh");
    await writeFile(script, step.script, { mode: 0o600 });
    for (const name of ["output", "env", "path", "summary", "state"]) await writeFile(path(name), "");
    const output = new StepOutput(options.masks, options.onLine);
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: folders.workspace,
      // A group of its own: its timeout and the job's end reach every process it starts.
      detached: true,
      env: {
        ...step.env,
        HOME: folders.home,
        // A PATH the workflow sets is the step's own; GITHUB_PATH's folders come first.
        PATH: [...step.path, step.env.PATH ?? process.env.PATH ?? ""].join(delimiter),
        CI: "true",
        GITHUB_ACTIONS: "true",
        GITHUB_EVENT_NAME: options.event.name,
        GITHUB_SHA: options.event.sha,
        GITHUB_REF: options.event.ref,
        GITHUB_REPOSITORY: options.repository,
        GITHUB_WORKSPACE: folders.workspace,
        RUNNER_TEMP: folders.temp,
        RUNNER_TOOL_CACHE: folders.toolCache,
        GITHUB_OUTPUT: path("output"),
        GITHUB_ENV: path("env"),
        GITHUB_PATH: path("path"),
        GITHUB_STEP_SUMMARY: path("summary"),
        GITHUB_STATE: path("state"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    options.groups.add(child);
    createInterface({ input: child.stdout }).on("line", (line) => output.line(line));
    createInterface({ input: child.stderr }).on("line", (line) => output.line(line));
    let timedOut = false;
    const timer =
      step.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            if (child.pid !== undefined) void options.groups.end(child.pid);
          }, step.timeoutMs);
    // The step ends with its script: a process it started in the background (holding its output
    // open) runs on until the job ends, as on a runner.
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    clearTimeout(timer);
    await rm(script, { force: true });
    try {
      if (timedOut) {
        options.onLine(`The step has timed out after ${formatMinutes(step.timeoutMs ?? 0)}.`);
        return { code: 1, outputs: {}, env: {}, path: [] };
      }
      const read = (name: string) => readFile(path(name), "utf8");
      return {
        code,
        outputs: readEnvFile(await read("output")),
        env: readGithubEnv(await read("env")),
        path: readGithubPath(await read("path")),
      };
    } catch (error) {
      if (!(error instanceof EnvFileError)) throw error;
      options.onLine(options.masks.apply(`Error: ${error.message}`));
      return { code: 1, outputs: {}, env: {}, path: [] };
    } finally {
      await rm(files, { recursive: true, force: true });
    }
  };
}

const formatMinutes = (ms: number) => {
  const minutes = ms / 60_000;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(2)} minute${minutes === 1 ? "" : "s"}`;
};
