// Text from somewhere else (a platform's names and messages, a user's input) shown in GitHub
// Markdown: as text, in one line, never as Markdown, HTML, a mention, a reference or a link.

const HTML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Characters that reorder the text around them (bidirectional embeddings, overrides and isolates):
 * shown as `�`, so a name cannot make a row read as something else.
 */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** U+2060, a word joiner: invisible, but it ends the word a mention or a reference must be. */
const JOIN = "\u2060";

/** Text safe inside HTML (`<pre>`, `<code>`): no tag, no entity, no reordering. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => HTML[c] as string).replace(BIDI, "\ufffd");

/**
 * Text shown as text in Markdown (a table cell, a heading), in one line: nothing in it is HTML or
 * Markdown (each such character an entity), and nothing GitHub would make live: no @mention that
 * pings a team (`@org/team`), no issue reference (`#12`), no link (`https://`, `www.`); a word
 * joiner breaks each.
 */
export const escapeCell = (text: string): string =>
  text
    .replace(/[@#](?=[\p{L}\p{N}_-])/gu, `$&${JOIN}`)
    .replace(/\b(www)\./gi, `$1${JOIN}.`)
    .replace(/:\/\//g, `:${JOIN}//`)
    .replace(/[&<>"'|`*_[\]\\#~!]/g, (c) => HTML[c] ?? `&#${c.charCodeAt(0)};`)
    .replace(BIDI, "\ufffd")
    .replace(/\r?\n|\r/g, " ");

/**
 * An http(s) URL as a Markdown link's target in a table cell, or undefined: no credentials, and
 * every character that could end the target, the cell or the row percent-encoded.
 */
export function markdownHref(link: string): string | undefined {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return undefined;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password)
    return undefined;
  return url.href.replace(
    /[()|<>"'`\\\s[\]*_]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
}
