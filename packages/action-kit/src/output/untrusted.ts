import { randomBytes } from "node:crypto";
import * as core from "@actions/core";
import type { LogLine } from "@cwp/client";
import { redact } from "./mask.js";

// Remote text is untrusted: a log line must never act as a workflow command, and must never
// change the layout of a summary.

/** The text of a log line, whatever shape the platform gave it. */
export const lineText = (line: LogLine) =>
  typeof line.log === "string" ? line.log : JSON.stringify(line.log);

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

/**
 * Prints one line of the step's log. Every line the actions print goes through here (log lines
 * through `printUntrusted`): whatever remote text it holds can never act as a workflow command,
 * and no masked value shows, even one echoed back by the platform.
 */
export const say = (line: string) => core.info(inert(redact(line)));

/** Warns (a `::warning::` annotation, its text escaped by the runner's rules), masked values redacted. */
export const warn = (message: string) => core.warning(redact(message));

/** Fails the step with an `::error::` annotation, masked values redacted. */
export const failWith = (message: string) => core.setFailed(redact(message));

const HTML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe inside HTML (`<pre>`, `<code>`). */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML[c] as string);

/** Text safe in a Markdown table cell: HTML escaped, Markdown punctuation as entities, one line. */
export const escapeCell = (text: string) =>
  escapeHtml(text)
    .replace(/[|`*_[\]\\#~!]/g, (c) => `&#${c.charCodeAt(0)};`)
    .replace(/\r?\n|\r/g, " ");
