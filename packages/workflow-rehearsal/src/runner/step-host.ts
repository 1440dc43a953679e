import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { createInterface } from "node:readline";
import type { RehearsalEvent } from "../contexts.js";
import type { ScriptResult, ScriptStep } from "../records.js";
import {
  EnvFileError,
  fileCommandText,
  readEnvFile,
  readGithubEnv,
  readGithubPath,
} from "./file-commands.js";
import { machineClock } from "./machine-clock.js";
import { machineNetwork } from "./machine-network.js";
import type { Masks } from "./masks.js";
import { actionNode, nodeWarnings } from "./node-runtime.js";
import type { ProcessGroups } from "./process-groups.js";
import { type ShellCommand, ShellError, shellCommand } from "./shells.js";
import { toolNote } from "./tools.js";
import { StepOutput } from "./workflow-commands.js";
import type { JobFolders } from "./workspace.js";

// A `run:` step (`cwp rehearse --run-shell`) as a runner runs it on Linux: in its shell (`shells.ts`),
// in its working directory (`working-directory:` or `defaults.run`, in the workspace copy), with a HOME, RUNNER_TEMP and
// RUNNER_TOOL_CACHE of the rehearsal's and the files a runner gives a step (GITHUB_OUTPUT,
// GITHUB_ENV, GITHUB_PATH, GITHUB_STEP_SUMMARY, GITHUB_STATE), read back with the runner's rules.
// Its output goes through the workflow commands and the masks before it is printed. It ends when
// its script ends (what it left in the background ends with the job), or at its timeout, its
// whole process group with it. Its script, which holds the step's values, is removed at once.
// A local JavaScript action's file runs the same way, with the runner's Node (`node-runtime.ts`).

const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ScriptRunnerOptions {
  event: RehearsalEvent;
  folders: JobFolders;
  masks: Masks;
  onLine(line: string): void;
  groups: ProcessGroups;
}

export function scriptRunner(options: ScriptRunnerOptions): (step: ScriptStep) => Promise<ScriptResult> {
  const { folders } = options;
  /** What was said of a JavaScript action's Node: once a rehearsal. */
  const warned = new Set<string>();
  return async (step) => {
    const failed = (message: string): ScriptResult => {
      options.onLine(options.masks.apply(`Error: ${message}`));
      return { code: 1, outputs: {}, env: {}, path: [] };
    };
    // The runner looks the shell up in its own PATH, GITHUB_PATH's folders first.
    const runnerPath = [...step.path, process.env.PATH ?? ""].join(delimiter);
    let shell: ShellCommand;
    try {
      shell =
        step.javascriptFile !== undefined
          ? javascriptCommand(step.javascriptFile)
          : shellCommand(step.shell, runnerPath);
    } catch (error) {
      if (error instanceof ShellError) return failed(error.message);
      throw error;
    }
    for (const warning of step.javascriptFile !== undefined ? nodeWarnings() : [])
      if (!warned.has(warning)) {
        warned.add(warning);
        options.onLine(`Warning: ${warning}`);
      }
    // Where working-directory says, relative to the workspace or absolute, as the runner resolves
    // it (actions/runner src/Runner.Worker/Handlers/ScriptHandler.cs: Path.Combine(workspace,
    // working-directory)). What the rehearsal keeps from the user's machine is what it hands out
    // (the workspace copy, HOME, RUNNER_TEMP), not where a script may go: it is no sandbox.
    const cwd = resolve(folders.workspace, step.workingDirectory ?? "");
    if (!(await isFolder(cwd)))
      return failed(
        `An error occurred trying to start process '${shell.program}' with working directory '${cwd}'. No such file or directory`,
      );
    // A PATH the workflow sets is the step's own; GITHUB_PATH's folders come first.
    const scriptPath = [...step.path, step.env.PATH ?? process.env.PATH ?? ""].join(delimiter);
    for (const tool of step.toolsAsked ?? [])
      options.onLine(
        options.masks.apply(await toolNote(tool, scriptPath, { PATH: scriptPath, HOME: folders.home })),
      );
    // The event's payload, where GITHUB_EVENT_PATH says (in runner.temp, as on a runner): written
    // for a job's first script, as each job's RUNNER_TEMP is new.
    const eventPath = step.variables.GITHUB_EVENT_PATH;
    if (eventPath !== undefined && inside(eventPath, [folders.temp]) && !(await exists(eventPath))) {
      await mkdir(dirname(eventPath), { recursive: true });
      await writeFile(eventPath, JSON.stringify(options.event.payload));
    }
    // The script in RUNNER_TEMP, named by a new GUID with its shell's extension (actions/runner
    // src/Runner.Worker/Handlers/ScriptHandler.cs @002caa1e, line 230); the files a runner hands a
    // step beside it (_runner_file_commands, FileCommandManager).
    const commands = join(folders.temp, "_runner_file_commands");
    await mkdir(commands, { recursive: true });
    const files = await mkdtemp(join(commands, "step-"));
    const path = (name: string) => join(files, name);
    const script = join(folders.temp, `${randomUUID()}${shell.extension}`);
    await writeFile(script, shell.contents(step.script), { mode: 0o600 });
    for (const name of ["output", "env", "path", "summary", "state"]) await writeFile(path(name), "");
    const output = new StepOutput(options.masks, options.onLine, {
      unsecureCommands: step.env.ACTIONS_ALLOW_UNSECURE_COMMANDS?.toLowerCase() === "true",
      unsecureStopTokens: ["true", "1"].includes(
        step.env.ACTIONS_ALLOW_UNSECURE_STOPCOMMAND_TOKENS?.toLowerCase() ?? "",
      ),
      debug: step.debug === true,
    });
    const child = spawn(shell.program, shell.args(script), {
      cwd,
      // A group of its own: its timeout and the job's end reach every process it starts.
      detached: true,
      env: {
        // A workflow's env may set CI; never a GITHUB_* or RUNNER_* default ("Variables reference").
        CI: "true",
        ...machineClock(),
        ...machineNetwork(),
        ...step.env,
        ...step.variables,
        HOME: folders.home,
        PATH: scriptPath,
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
      // Node's timers hold at most 2^31 - 1 ms (24.8 days): a longer one would fire at once.
      step.timeout.ms > MAX_TIMER_MS
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            if (child.pid !== undefined) void options.groups.end(child.pid);
          }, step.timeout.ms);
    // The step ends with its script: a process it started in the background (holding its output
    // open) runs on until the job ends, as on a runner.
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    clearTimeout(timer);
    await rm(script, { force: true });
    try {
      if (timedOut) {
        options.onLine(`Error: ${step.timeout.message}`);
        return { code: 1, outputs: {}, env: {}, path: [] };
      }
      // The files are read as the step ends, after every command it printed: theirs come last.
      // Each on its own (FileCommandManager.ProcessFiles): one the runner cannot read fails the
      // step, in its words, and the others still count.
      let fileFailed = false;
      const file = async <T>(name: string, read: (text: string) => T, none: T): Promise<T> => {
        const text = fileCommandText(await readFile(path(name), "utf8").catch(() => undefined));
        try {
          return read(text);
        } catch (error) {
          if (!(error instanceof EnvFileError)) throw error;
          options.onLine(
            options.masks.apply(`Error: Unable to process file command '${name}' successfully.`),
          );
          options.onLine(options.masks.apply(`Error: ${error.message}`));
          fileFailed = true;
          return none;
        }
      };
      const env = await file("env", readGithubEnv, { env: {}, errors: [] });
      for (const error of env.errors) options.onLine(options.masks.apply(`Error: ${error}`));
      const outputs = await file("output", readEnvFile, {});
      const state = await file("state", readEnvFile, {});
      const added = await file("path", readGithubPath, []);
      const summary = await stepSummary(path("summary"), options);
      return {
        code: (output.failed || fileFailed) && code === 0 ? 1 : code,
        outputs: { ...output.outputs, ...outputs },
        env: { ...output.env, ...env.env },
        path: [...output.path, ...added],
        state: { ...output.state, ...state },
        ...(summary !== undefined ? { summary } : {}),
      };
    } finally {
      await rm(files, { recursive: true, force: true });
    }
  };
}

/** GitHub's limit of a step's summary (FileCommandManager's CreateStepSummaryCommand: _attachmentSizeLimit). */
const SUMMARY_LIMIT = 1024 * 1024;

/**
 * What the step wrote to GITHUB_STEP_SUMMARY, masked as the runner masks it before the upload;
 * none where it wrote nothing, or more than GitHub takes (an error, in the runner's words
 * (src/Runner.Common/Constants.cs, UnsupportedSummarySize), and the step goes on).
 */
async function stepSummary(file: string, options: ScriptRunnerOptions): Promise<string | undefined> {
  const bytes = await readFile(file).catch(() => undefined);
  if (bytes === undefined || bytes.length === 0) return undefined;
  if (bytes.length > SUMMARY_LIMIT) {
    options.onLine(
      `Error: $GITHUB_STEP_SUMMARY upload aborted, supports content up to a size of ${SUMMARY_LIMIT / 1024}k, got ${Math.floor(bytes.length / 1024)}k. For more information see: https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-markdown-summary`,
    );
    return undefined;
  }
  return options.masks.apply(bytes.toString("utf8"));
}

/** A JavaScript action's file, as the runner starts it: `node <file>`, with the runner's Node (its script is empty). */
const javascriptCommand = (file: string): ShellCommand => ({
  program: actionNode(),
  args: () => [file],
  extension: "",
  contents: () => "",
});

/** Whether `path` is one of `folders` or inside one. */
const inside = (path: string, folders: string[]) =>
  folders.some((folder) => {
    const rel = relative(folder, path);
    return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
  });

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

const isFolder = (path: string) =>
  stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
