import * as core from "@actions/core";

// What is masked is also redacted: the runner masks exact strings in the log, but a secret echoed
// back in an error, or re-encoded by escaping (`_` as `&#95;` in a summary), would slip past it.
// So every text the actions print or write goes through `redact` first.

/** Every value masked so far, longest first (so a secret inside another is not half-redacted). */
let masked: string[] = [];

/** Masks a secret before anything else is printed; every line of a multi-line value on its own. */
export function mask(value: string | undefined): void {
  if (!value) return;
  for (const line of value.split(/\r?\n/)) {
    if (line.trim().length === 0) continue;
    core.setSecret(line);
    if (!masked.includes(line)) masked = [...masked, line].sort((a, b) => b.length - a.length);
  }
}

/** `text` with every masked value replaced by `***`. */
export function redact(text: string): string {
  let out = text;
  for (const secret of masked) out = out.split(secret).join("***");
  return out;
}

/**
 * Masks every token input (`api-token`, `github-token`, any `*-token`) and `CWP_API_TOKEN`
 * straight from the environment, before inputs are even parsed, so that no message can show them.
 */
export function maskTokensFromEnvironment(): void {
  for (const [name, value] of Object.entries(process.env))
    if (/^INPUT_.*TOKEN$/.test(name) || name === "CWP_API_TOKEN") mask(value?.trim());
}

/**
 * Whether a value of a map can be a secret. Masking `1`, `true` or `prod` would turn every later
 * `1` in the job's log into `***`, so values shorter than 4 characters, booleans and plain numbers
 * are not masked.
 */
export function canBeSecret(value: string): boolean {
  return (
    value.trim().length >= 4 &&
    !/^(true|false|yes|no|on|off)$/i.test(value.trim()) &&
    !/^[-+]?\d+(\.\d+)?$/.test(value.trim())
  );
}

/** Masks every value of a map that can be a secret (runtime environment values, build arguments). */
export function maskValues(values: Record<string, unknown> | undefined): void {
  for (const value of Object.values(values ?? {})) {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    if (canBeSecret(text)) mask(text);
  }
}
