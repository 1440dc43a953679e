import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

// The command a runner starts for a `run:` step on Linux, by its `shell:` ("Workflow syntax",
// jobs.<job_id>.steps[*].shell,
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_idstepsshell;
// the runner's ScriptHandler and ScriptHandlerHelpers):
//   none        bash -e {0} (sh -e {0} where there is no bash): no pipefail, no --noprofile
//   bash        bash --noprofile --norc -eo pipefail {0}
//   sh          sh -e {0}
//   python      python {0}
//   pwsh        pwsh -command ". '{0}'", the script between "$ErrorActionPreference = 'stop'" and
//               an exit with $LASTEXITCODE
//   COMMAND ARGS  a custom shell: ARGS must hold {0}, the script's path
// The script is written with the extension its shell expects (.sh, .py, .ps1; none for a custom
// one), and the command is looked up in PATH (GITHUB_PATH's folders first) as the runner looks.

/** A shell the runner refuses before it starts anything: the step fails with this message. */
export class ShellError extends Error {
  override name = "ShellError";
}

interface BuiltIn {
  args: string;
  extension: string;
  wrap?(script: string): string;
}

const BUILT_IN: Record<string, BuiltIn> = {
  bash: { args: "--noprofile --norc -e -o pipefail {0}", extension: ".sh" },
  sh: { args: "-e {0}", extension: ".sh" },
  python: { args: "{0}", extension: ".py" },
  pwsh: {
    args: `-command ". '{0}'"`,
    extension: ".ps1",
    wrap: (script) =>
      `$ErrorActionPreference = 'stop'\n${script}\nif ((Test-Path -LiteralPath variable:\\LASTEXITCODE)) { exit $LASTEXITCODE }`,
  },
};

/** How to run one script: the program, its arguments once the script's path is known, the file. */
export interface ShellCommand {
  /** The program's path, as PATH resolved it. */
  program: string;
  /** The arguments, with the script's path where the shell's {0} is. */
  args(scriptPath: string): string[];
  /** The extension the script's file is written with. */
  extension: string;
  /** The script as the shell runs it. */
  contents(script: string): string;
}

/** The command for `shell` (undefined: none set), its program looked up in `path` (the runner's PATH). */
export function shellCommand(shell: string | undefined, path: string): ShellCommand {
  const trimmed = shell?.trim();
  if (trimmed === undefined || trimmed === "") {
    const program = which("bash", path) ?? required("sh", path);
    return command(program, "-e {0}", BUILT_IN.sh as BuiltIn);
  }
  const space = trimmed.indexOf(" ");
  const name = space < 0 ? trimmed : trimmed.slice(0, space);
  const given = space < 0 ? "" : trimmed.slice(space + 1).trimStart();
  const builtIn = BUILT_IN[name];
  const args = given || builtIn?.args || "";
  if (!args.includes("{0}"))
    throw new ShellError(
      "Invalid shell option. Shell must be a valid built-in (bash, sh, cmd, powershell, pwsh) or a format string containing '{0}'",
    );
  return command(required(name, path), args, builtIn);
}

function command(program: string, format: string, builtIn: BuiltIn | undefined): ShellCommand {
  return {
    program,
    args: (scriptPath) => splitArguments(format.replaceAll("{0}", scriptPath.replaceAll('"', '\\"'))),
    extension: builtIn?.extension ?? "",
    contents: (script) => builtIn?.wrap?.(script) ?? script,
  };
}

/** The first executable file named `name` in a folder of `path` (the runner's WhichUtil). */
export function which(name: string, path: string): string | undefined {
  if (name.includes("/")) return isExecutable(name) ? name : undefined;
  for (const folder of path.split(delimiter)) {
    if (folder === "") continue;
    const candidate = join(folder, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function required(name: string, path: string): string {
  const found = which(name, path);
  if (found === undefined) throw new ShellError(`File not found: '${name}'`);
  return found;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * An argument string split as the runner's .NET splits a process's arguments: spaces separate,
 * double quotes group (a quote escaped with a backslash is a quote), nothing else is special.
 */
export function splitArguments(text: string): string[] {
  const out: string[] = [];
  let current = "";
  let started = false;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "\\" && text[i + 1] === '"') {
      current += '"';
      started = true;
      i++;
    } else if (c === '"') {
      quoted = !quoted;
      started = true;
    } else if (!quoted && /\s/.test(c)) {
      if (started) out.push(current);
      current = "";
      started = false;
    } else {
      current += c;
      started = true;
    }
  }
  if (started) out.push(current);
  return out;
}
