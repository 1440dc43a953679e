import * as core from "@actions/core";

/** Masks a secret before anything else is printed; every line of a multi-line value on its own. */
export function mask(value: string | undefined): void {
  if (!value) return;
  for (const line of value.split(/\r?\n/)) if (line.trim().length > 0) core.setSecret(line);
}

/**
 * Masks the API token straight from the environment, before inputs are even parsed, so that no
 * message can ever show it.
 */
export function maskTokenFromEnvironment(): void {
  mask(process.env["INPUT_API-TOKEN"]?.trim());
  mask(process.env.CWP_API_TOKEN?.trim());
}

/** Masks every value of a map (runtime environment values, build arguments). */
export function maskValues(values: Record<string, unknown> | undefined): void {
  for (const value of Object.values(values ?? {}))
    mask(typeof value === "string" ? value : JSON.stringify(value));
}
