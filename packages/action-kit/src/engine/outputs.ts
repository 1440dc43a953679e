import { host, type Output, warn } from "./host.js";
import type { OutputKind } from "./output-kinds.js";

/**
 * Step outputs: every one written at the start with its kind's default, so a step that fails early
 * still has them all, then updated as facts become known. A value of platform text that does not
 * have its kind's shape is not set (the output is left empty), and a warning names the output, never
 * the value.
 */
export class Outputs<K extends string> {
  readonly #kinds: Record<K, OutputKind>;
  readonly #refused = new Set<string>();

  constructor(kinds: Record<K, OutputKind>) {
    this.#kinds = kinds;
    const defaults = Object.entries<OutputKind>(kinds).map(([name, kind]) => [name, kind.default]);
    this.set(Object.fromEntries(defaults) as Partial<Record<K, string>>);
  }

  set(values: Partial<Record<K, string | number | boolean | null | undefined>>): void {
    const set: Record<string, Output> = {};
    for (const [name, value] of Object.entries<string | number | boolean | null | undefined>(values)) {
      if (value === undefined || value === null) continue;
      const kind = this.#kinds[name as K];
      if (!kind) throw new Error(`output ${name} is not declared`);
      const text = String(value);
      if (kind.shape && text !== "" && !kind.shape.pattern.test(text)) {
        // Once per output: a wait sets the same outputs on every status change.
        if (!this.#refused.has(name))
          warn(`The platform's value for output ${name} is not ${kind.shape.is}: the output is not set.`);
        this.#refused.add(name);
        // Empty, not the last good value: a status of an earlier poll would say what is not so.
        set[name] = { text: kind.default, type: kind.type };
        continue;
      }
      set[name] = { text, type: kind.type };
    }
    if (Object.keys(set).length > 0) host().outputs(set);
  }
}
