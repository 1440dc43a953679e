import * as core from "@actions/core";

/** Masks a secret before anything else is printed; every line of a multi-line value on its own. */
export function mask(value: string | undefined): void {
  if (!value) return;
  for (const line of value.split(/\r?\n/)) if (line.trim().length > 0) core.setSecret(line);
}

/**
 * Masks every token input (`api-token`, `github-token`, any `*-token`) and `CWP_API_TOKEN`
 * straight from the environment, before inputs are even parsed, so that no message can show them.
 */
export function maskTokensFromEnvironment(): void {
  for (const [name, value] of Object.entries(process.env))
    if (/^INPUT_.*TOKEN$/.test(name) || name === "CWP_API_TOKEN") mask(value?.trim());
}

/** Masks every value of a map (runtime environment values, build arguments). */
export function maskValues(values: Record<string, unknown> | undefined): void {
  for (const value of Object.values(values ?? {}))
    mask(typeof value === "string" ? value : JSON.stringify(value));
}
