import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { createInterface } from "node:readline";
import type { RehearsalEvent } from "./contexts.js";
import type { ScriptResult, ScriptStep } from "./rehearse.js";

// `run:` steps run with bash (`cwp rehearse --run-shell`), as a runner runs them on Linux
// (`bash --noprofile --norc -eo pipefail {0}`), in the rehearsal's scratch workspace, with the
// files a runner gives a step: GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH and GITHUB_STEP_SUMMARY.
// What it writes there is read back as a runner reads it (`name=value`, or `name<<DELIMITER`
// lines up to the delimiter), so a version a script computes reaches our step after it.

export interface BashScriptOptions {
  event: RehearsalEvent;
  repository: string;
  /** The scratch folder the scripts run in. */
  folder: string;
  onLine(line: string): void;
  children: Set<ChildProcess>;
}

/** A GITHUB_OUTPUT or GITHUB_ENV file's pairs, as the runner reads them. */
export function commandFilePairs(text: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === "") continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delimiter] = heredoc as unknown as [string, string, string];
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] as string);
      pairs[name] = value.join("\n");
      continue;
    }
    const at = line.indexOf("=");
    if (at > 0) pairs[line.slice(0, at)] = line.slice(at + 1);
  }
  return pairs;
}

export function bashScripts(options: BashScriptOptions): (step: ScriptStep) => Promise<ScriptResult> {
  return async (step) => {
    const files = await mkdtemp(join(options.folder, ".step-"));
    const path = (name: string) => join(files, name);
    const script = path("script.sh");
    await writeFile(script, step.script);
    for (const name of ["output", "env", "path", "summary"]) await writeFile(path(name), "");
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: options.folder,
      env: {
        HOME: process.env.HOME ?? options.folder,
        ...step.env,
        // A PATH the workflow sets is the step's own; GITHUB_PATH's folders come first.
        PATH: [...step.path, step.env.PATH ?? process.env.PATH ?? ""].join(delimiter),
        CI: "true",
        GITHUB_ACTIONS: "true",
        GITHUB_EVENT_NAME: options.event.name,
        GITHUB_SHA: options.event.sha,
        GITHUB_REF: options.event.ref,
        GITHUB_REPOSITORY: options.repository,
        GITHUB_WORKSPACE: options.folder,
        GITHUB_OUTPUT: path("output"),
        GITHUB_ENV: path("env"),
        GITHUB_PATH: path("path"),
        GITHUB_STEP_SUMMARY: path("summary"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    options.children.add(child);
    createInterface({ input: child.stdout }).on("line", options.onLine);
    createInterface({ input: child.stderr }).on("line", options.onLine);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    options.children.delete(child);
    const read = (name: string) => readFile(path(name), "utf8");
    return {
      code,
      outputs: commandFilePairs(await read("output")),
      env: commandFilePairs(await read("env")),
      path: (await read("path")).split(/\r?\n/).filter((line) => line !== ""),
    };
  };
}
