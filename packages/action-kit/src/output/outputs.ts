import * as core from "@actions/core";

/**
 * Step outputs: every one written at the start with its default, so a step that fails early still
 * has them all, then updated as facts become known.
 */
export class Outputs<K extends string> {
  constructor(defaults: Record<K, string>) {
    this.set(defaults);
  }

  set(values: Partial<Record<K, string | number | boolean | undefined>>): void {
    for (const [name, value] of Object.entries(values)) {
      if (value !== undefined) core.setOutput(name, String(value));
    }
  }
}
