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
 * Text from the platform (an id, a status, a message) made safe for one line of the step's log: line
 * breaks become ` ⏎ ` and `::` becomes `: :`, so no part of it can start a line, let alone a
 * workflow command (`::warning::`, `::add-mask::`, ...).
 */
export const inert = (text: string) => text.replace(/\r\n|\r|\n/g, " ⏎ ").replaceAll("::", ": :");
