// What is masked is also redacted: a runner masks exact strings in the log, but a secret echoed
// back in an error, or re-encoded by escaping (`_` as `&#95;` in a summary), would slip past it,
// and a terminal masks nothing. So every text the engine hands a host goes through `redact` first.

/** Every value masked so far, longest first (so a secret inside another is not half-redacted). */
let masked: string[] = [];
let onMask: (secret: string) => void = () => {};

/** Where masked values go as well (the GitHub host tells the runner). */
export function onMasked(listener: (secret: string) => void): void {
  onMask = listener;
  for (const secret of masked) listener(secret);
}

/** Masks a secret before anything else is printed; every line of a multi-line value on its own. */
export function mask(value: string | undefined): void {
  if (!value) return;
  for (const line of value.split(/\r?\n/)) {
    if (line.trim().length === 0 || masked.includes(line)) continue;
    masked = [...masked, line].sort((a, b) => b.length - a.length);
    onMask(line);
  }
}

/** `text` with every masked value replaced by `***`. */
export function redact(text: string): string {
  let out = text;
  for (const secret of masked) out = out.split(secret).join("***");
  return out;
}

/**
 * Whether a value of a map can be a secret. Masking `1`, `true` or `dev` would turn every later
 * `1` in the job's log into `***`, so values shorter than 4 characters, booleans and plain numbers
 * are not masked.
 */
export function canBeSecret(value: string): boolean {
  const v = value.trim();
  return v.length >= 4 && !/^(true|false|yes|no|on|off)$/i.test(v) && !/^[-+]?\d+(\.\d+)?$/.test(v);
}

/** Masks every value of a map that can be a secret (runtime environment values, build arguments). */
export function maskValues(values: Record<string, unknown> | undefined): void {
  for (const value of Object.values(values ?? {})) {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    if (canBeSecret(text)) mask(text);
  }
}
