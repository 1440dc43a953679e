// The files a step writes for the runner (GITHUB_OUTPUT, GITHUB_ENV, GITHUB_STATE; GITHUB_PATH),
// read with the runner's rules (actions/runner, FileCommandManager: "Workflow commands for GitHub
// Actions", https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#environment-files):
// `NAME=value` lines, or `NAME<<DELIMITER` up to the first line that is DELIMITER; an empty line is
// nothing; anything else fails the step, in the runner's words. What fails is never half read.

/** A file the runner would refuse: the step fails with this message. */
export class EnvFileError extends Error {
  override name = "EnvFileError";
}

/** The pairs of a GITHUB_OUTPUT, GITHUB_ENV or GITHUB_STATE file. */
export function readEnvFile(text: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  // A file ends with a newline: its last "line" is no line.
  if (lines.at(-1) === "") lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === "") continue;
    const equals = line.indexOf("=");
    const heredoc = line.indexOf("<<");
    if (equals >= 0 && (heredoc < 0 || equals < heredoc)) {
      const name = line.slice(0, equals);
      if (name === "") throw new EnvFileError(`Invalid format '${line}'. Name must not be empty`);
      pairs[name] = line.slice(equals + 1);
    } else if (heredoc >= 0) {
      const name = line.slice(0, heredoc);
      const delimiter = line.slice(heredoc + 2);
      if (name === "" || delimiter === "")
        throw new EnvFileError(
          `Invalid format '${line}'. Name must not be empty and delimiter must not be empty`,
        );
      const end = lines.indexOf(delimiter, i + 1);
      if (end < 0) throw new EnvFileError(`Matching delimiter not found '${delimiter}'`);
      pairs[name] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else throw new EnvFileError(`Invalid format '${line}'`);
  }
  return pairs;
}

/** GITHUB_ENV's pairs: as any env file, but NODE_OPTIONS, which would reach every later step's Node, is refused. */
export function readGithubEnv(text: string): Record<string, string> {
  const pairs = readEnvFile(text);
  if (Object.keys(pairs).some((name) => name.toUpperCase() === "NODE_OPTIONS"))
    throw new EnvFileError("Can't store NODE_OPTIONS output parameter using '$GITHUB_ENV' command.");
  return pairs;
}

/** GITHUB_PATH's folders, one a line. */
export const readGithubPath = (text: string): string[] =>
  text.split(/\r?\n/).filter((line) => line.trim() !== "");
