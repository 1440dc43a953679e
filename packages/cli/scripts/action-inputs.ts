// Writes src/actions.generated.json from actions/*/action.yml: each action's description, inputs
// (description, required, default) and outputs. The CLI's flags, their help and their defaults come
// from it, so a flag cannot drift from the action input it stands for. Run by build and typecheck.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

interface ActionYml {
  description: string;
  inputs?: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs?: Record<string, { description: string }>;
}

const actionsDir = new URL("../../../actions/", import.meta.url).pathname;
const actions = Object.fromEntries(
  readdirSync(actionsDir)
    .filter((name) => !name.startsWith("."))
    .sort()
    .map((name) => {
      const yml = parse(readFileSync(join(actionsDir, name, "action.yml"), "utf8")) as ActionYml;
      return [
        name,
        {
          description: yml.description,
          inputs: Object.fromEntries(
            Object.entries(yml.inputs ?? {}).map(([input, spec]) => [
              input,
              {
                description: spec.description,
                required: spec.required === true,
                ...(spec.default !== undefined ? { default: String(spec.default) } : {}),
              },
            ]),
          ),
          outputs: Object.fromEntries(
            Object.entries(yml.outputs ?? {}).map(([output, spec]) => [output, spec.description]),
          ),
        },
      ];
    }),
);
writeFileSync(
  new URL("../src/actions.generated.json", import.meta.url),
  `${JSON.stringify(actions, null, 2)}\n`,
);
