import { randomBytes } from "node:crypto";

// Remote text is untrusted: a log line must never act as a workflow command (in Markdown, see
// @cwp/markdown-text).

/**
 * Prints remote lines between `::stop-commands::<token>` and `::<token>::`, with a token nobody can
 * guess, so `::add-mask::`, `::error::` or a forged `::stop-commands::` in a line do nothing.
 */
export function printUntrusted(
  lines: readonly string[],
  write = (text: string) => process.stdout.write(text),
): void {
  if (lines.length === 0) return;
  const token = randomBytes(16).toString("hex");
  const body = lines.flatMap((line) => line.split(/\r\n|\r|\n/)).join("\n");
  write(`::stop-commands::${token}\n${body}\n::${token}::\n`);
}

/**
 * The runner's older command syntax, `##[name ...]data`, acts anywhere in a line, not only at its
 * start: every `##[` is broken up (`# #[`), in every line the step prints outside a stop-commands
 * block (annotations and group titles included).
 */
export const noOldCommands = (text: string) => text.replaceAll("##[", "# #[");

/**
 * Text from the platform (an id, a status, a message) made safe for one line of the step's log: line
 * breaks become ` ⏎ ` and `::` becomes `: :`, so no part of it can start a line, let alone a
 * workflow command (`::warning::`, `::add-mask::`, ...), and no `##[` is left in it.
 */
export const inert = (text: string) =>
  noOldCommands(text.replace(/\r\n|\r|\n/g, " ⏎ ").replaceAll("::", ": :"));
