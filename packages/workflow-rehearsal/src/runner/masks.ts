// What a rehearsal prints is masked as a runner masks its log ("Using secrets in GitHub Actions",
// https://docs.github.com/en/actions/security-for-github-actions/security-guides/using-secrets-in-github-actions,
// and "Workflow commands", `add-mask`): every secret, a multi-line one whole and line by line, the
// encodings a runner registers beside each value (Base64 at any byte offset, JSON and URL escaping),
// and every value a step masks with `::add-mask::` from the line it does so on.

/** Below this many characters a line or an encoding is not masked alone (a runner keeps `{`, `}`, 1-character lines). */
const SHORTEST = 2;

/**
 * The Base64 text of `value` wherever it stands in a longer Base64 text: its bytes may start at
 * any of three offsets of a 3-byte group, so the characters that depend on `value` alone differ
 * for each; those are masked (the runner's Base64StringEscape with its two shifts).
 */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const forms: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes])
      .toString("base64")
      .replace(/=+$/, "");
    // Characters mixed with the bytes before (the shift) or after (the last partial group) are
    // not this value's alone.
    const start = shift === 0 ? 0 : shift + 1;
    const total = shift + bytes.length;
    const end = total % 3 === 0 ? encoded.length : encoded.length - 1;
    forms.push(encoded.slice(start, end));
  }
  return forms;
}

export class Masks {
  /** Longest first, so that a value holding another is hidden whole. */
  #values: string[] = [];

  /** Masks `value` from now on: whole, each of its lines, and its encodings. */
  add(value: string): void {
    if (value === "") return;
    const lines = value.split(/\r?\n/).map((line) => line.trim());
    const forms = [
      value,
      ...lines,
      ...base64Forms(value),
      JSON.stringify(value).slice(1, -1),
      encodeURIComponent(value),
    ].filter((form) => form.length >= SHORTEST);
    this.#values = [...new Set([...this.#values, ...forms])].sort((a, b) => b.length - a.length);
  }

  addAll(values: Iterable<string>): void {
    for (const value of values) this.add(value);
  }

  /** `text` with every masked value as `***`. */
  apply(text: string): string {
    let masked = text;
    for (const value of this.#values) if (masked.includes(value)) masked = masked.split(value).join("***");
    return masked;
  }
}
