import { host, type OutputValue } from "./host.js";

/**
 * Step outputs: every one written at the start with its default, so a step that fails early still
 * has them all, then updated as facts become known. Each output keeps the type of its default
 * (`"false"` a boolean, `"0"` a number, else text), so a terminal's JSON carries true types.
 */
export class Outputs<K extends string> {
  readonly #types: Record<string, "boolean" | "number" | "string">;

  constructor(defaults: Record<K, string>) {
    this.#types = Object.fromEntries(
      Object.entries<string>(defaults).map(([name, value]) => [
        name,
        value === "true" || value === "false"
          ? "boolean"
          : /^-?\d+(\.\d+)?$/.test(value)
            ? "number"
            : "string",
      ]),
    );
    this.set(defaults);
  }

  set(values: Partial<Record<K, string | number | boolean | undefined>>): void {
    const typed: Record<string, OutputValue> = {};
    for (const [name, value] of Object.entries<string | number | boolean | undefined>(values)) {
      if (value === undefined) continue;
      const type = this.#types[name] ?? "string";
      typed[name] =
        type === "boolean"
          ? value === true || value === "true"
          : type === "number"
            ? Number(value)
            : String(value);
    }
    if (Object.keys(typed).length > 0) host().outputs(typed);
  }
}
