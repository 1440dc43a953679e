import { randomBytes } from "node:crypto";

// Remote text is untrusted: a log line must never act as a workflow command, and must never
// change the layout of a summary.

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

const HTML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe inside HTML (`<pre>`, `<code>`). */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML[c] as string);

/** Text safe in a Markdown table cell: HTML escaped, Markdown punctuation as entities, one line. */
export const escapeCell = (text: string) =>
  escapeHtml(text)
    .replace(/[|`*_[\]\\#~!]/g, (c) => `&#${c.charCodeAt(0)};`)
    .replace(/\r?\n|\r/g, " ");
