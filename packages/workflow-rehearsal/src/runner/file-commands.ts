// The files a step writes for the runner (GITHUB_OUTPUT, GITHUB_ENV, GITHUB_STATE; GITHUB_PATH),
// read as actions/runner's src/Runner.Worker/FileCommandManager.cs reads them: EnvFileKeyValuePairs
// and AddPathFileCommand, in the newest copy the search index holds (the fork
// google-ml-infra/runner @10451bed; actions/runner's own stored copy @28a63010 is older and reads
// the same lines). On Linux:
//   - a file the step deleted is no command; a UTF-8 byte order mark is not text (StreamReader);
//   - lines end at "\n" only: a CR at a line's end stays in the value (ReadLine);
//   - `NAME=value`, or `NAME<<DELIMITER` up to the first line that is DELIMITER; an empty line is
//     nothing; anything else throws, and the step fails with "Unable to process file command
//     '<name>' successfully." and the reason; what throws is never half read.
// Where the code and the documentation differ the code is followed: `=value` has an empty name
// that the runner's check (of the line, not the name) lets through; the rehearsal refuses it
// still, since no environment can hold a variable without a name (the one rule of ours here).

/** A file the runner would refuse: the step fails with this message. */
export class EnvFileError extends Error {
  override name = "EnvFileError";
}

/** A file command's text as the runner reads it: nothing for a file that is gone, no byte order mark. */
export const fileCommandText = (text: string | undefined): string => (text ?? "").replace(/^\uFEFF/, "");

/** The line at `index` and where the next begins; undefined past the end (EnvFileKeyValuePairs.ReadLine). */
function readLine(text: string, index: number): { line: string; next: number; newline: boolean } | undefined {
  if (index >= text.length) return undefined;
  const lf = text.indexOf("\n", index);
  return lf < 0
    ? { line: text.slice(index), next: text.length, newline: false }
    : { line: text.slice(index, lf), next: lf + 1, newline: true };
}

/** The pairs of a GITHUB_OUTPUT, GITHUB_ENV or GITHUB_STATE file. */
export function readEnvFile(text: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (let at = readLine(text, 0); at !== undefined; at = readLine(text, at.next)) {
    const { line } = at;
    if (line === "") continue;
    const equals = line.indexOf("=");
    const heredoc = line.indexOf("<<");
    if (equals >= 0 && (heredoc < 0 || equals < heredoc)) {
      if (equals === 0) throw new EnvFileError(`Invalid format '${line}'. Name must not be empty`);
      pairs[line.slice(0, equals)] = line.slice(equals + 1);
    } else if (heredoc >= 0) {
      const name = line.slice(0, heredoc);
      const delimiter = line.slice(heredoc + 2);
      if (name === "" || delimiter === "")
        throw new EnvFileError(
          `Invalid format '${line}'. Name must not be empty and delimiter must not be empty`,
        );
      const start = at.next;
      let end = start;
      let value = readLine(text, at.next);
      while (value?.line !== delimiter) {
        if (value === undefined)
          throw new EnvFileError(`Invalid value. Matching delimiter not found '${delimiter}'`);
        if (!value.newline) throw new EnvFileError("Invalid value. EOF marker missing new line.");
        end = value.next - 1;
        value = readLine(text, value.next);
      }
      pairs[name] = end > start ? text.slice(start, end) : "";
      at = value;
    } else throw new EnvFileError(`Invalid format '${line}'`);
  }
  return pairs;
}

/**
 * GITHUB_ENV's pairs, and the runner's error annotations: NODE_OPTIONS, which would reach every
 * later step's Node, is left out with an error annotation, and the step goes on (SetEnvFileCommand).
 */
export function readGithubEnv(text: string): { env: Record<string, string>; errors: string[] } {
  const env: Record<string, string> = {};
  const errors: string[] = [];
  for (const [name, value] of Object.entries(readEnvFile(text))) {
    if (name.toUpperCase() === "NODE_OPTIONS")
      errors.push("Can't store NODE_OPTIONS output parameter using '$GITHUB_ENV' command.");
    else env[name] = value;
  }
  return { env, errors };
}

/** GITHUB_PATH's folders, one a line (split at "\r\n" or "\n"), in the order added. */
export const readGithubPath = (text: string): string[] => text.split(/\r\n|\n/).filter((line) => line !== "");

/**
 * Puts folders a step added (add-path, GITHUB_PATH, in the order added) at the front of the job's
 * PATH (`path`, front first): the latest added first, and a folder added again moved, not repeated
 * (AddPathFileCommand and AddPathCommandExtension: PrependPath.RemoveAll, then Add).
 */
export function prependPath(path: string[], added: readonly string[]): void {
  for (const folder of added) {
    const at = path.indexOf(folder);
    if (at >= 0) path.splice(at, 1);
    path.unshift(folder);
  }
}
