// Checks every actions/*/action.yml against GitHub's metadata syntax for actions, keeps each
// action README's input and output tables equal to its action.yml, and checks that the example
// workflows use the actions with inputs they have (and every required one).
//   pnpm action-docs     rewrite the README tables
//   pnpm check:actions   fail when a table or an action.yml is wrong (CI)
// (through pnpm: its scripts run on the clone's Node 24, which runs TypeScript; Node 20 does not)
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parse } from "yaml";
import { z } from "zod";

// GitHub's "Metadata syntax for GitHub Actions" (SchemaStore's github-action.json, transcribed:
// this machine has no network to fetch it), narrowed to what a JavaScript action may use. Branding
// icons are Feather icons, checked against the feather-icons package.
const COLORS = ["white", "yellow", "blue", "green", "orange", "red", "purple", "gray-dark"] as const;
const FEATHER_ICONS = Object.keys(
  (createRequire(import.meta.url)("feather-icons") as { icons: object }).icons,
);
const INPUT_ID = /^[_a-zA-Z][a-zA-Z0-9_-]*$/;
const metadata = z.strictObject({
  name: z.string().min(1),
  description: z.string().min(1),
  author: z.string().optional(),
  branding: z.strictObject({
    icon: z.string().refine((icon) => FEATHER_ICONS.includes(icon), "must be a Feather icon name"),
    color: z.enum(COLORS),
  }),
  inputs: z.record(
    z.string().regex(INPUT_ID),
    z.strictObject({
      description: z.string().min(1),
      required: z.boolean().optional(),
      default: z.string().optional(),
      deprecationMessage: z.string().optional(),
    }),
  ),
  outputs: z.record(
    z.string().regex(/^[a-z][a-z0-9-]*$/),
    z.strictObject({ description: z.string().min(1) }),
  ),
  runs: z.strictObject({
    using: z.literal("node24"),
    main: z.string().regex(/^dist\/index\.m?js$/),
    pre: z.string().optional(),
    post: z.string().optional(),
  }),
});
type Metadata = z.infer<typeof metadata>;

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

function tables(meta: Metadata): string {
  const inputs = Object.entries(meta.inputs).map(
    ([name, i]) =>
      `| \`${name}\` | ${i.required ? "yes" : "no"} | ${i.default !== undefined ? `\`${i.default}\`` : ""} | ${cell(i.description)} |`,
  );
  const outputs = Object.entries(meta.outputs).map(([name, o]) => `| \`${name}\` | ${cell(o.description)} |`);
  return [
    "## Inputs",
    "",
    "| input | required | default | description |",
    "|---|---|---|---|",
    ...inputs,
    "",
    "## Outputs",
    "",
    "| output | description |",
    "|---|---|",
    ...outputs,
  ].join("\n");
}

const BEGIN = "<!-- action-metadata: begin (generated from action.yml by scripts/action-metadata.ts) -->";
const END = "<!-- action-metadata: end -->";
const check = process.argv.includes("--check");
const problems: string[] = [];
for (const name of readdirSync("actions")) {
  const dir = join("actions", name);
  const parsed = metadata.safeParse(parse(readFileSync(join(dir, "action.yml"), "utf8")));
  if (!parsed.success) {
    problems.push(
      `${dir}/action.yml: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
    continue;
  }
  const readmePath = join(dir, "README.md");
  const readme = readFileSync(readmePath, "utf8");
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) {
    problems.push(`${readmePath}: has no generated tables between the action-metadata markers`);
    continue;
  }
  const updated = `${readme.slice(0, start + BEGIN.length)}\n\n${tables(parsed.data)}\n\n${readme.slice(end)}`;
  if (!readme.includes("```yaml") || !readme.includes(`/actions/${name}@`))
    problems.push(`${readmePath}: needs a usage example (uses: .../actions/${name}@...)`);
  if (updated === readme) continue;
  if (check)
    problems.push(`${readmePath}: the input/output tables differ from action.yml (run: pnpm action-docs)`);
  else writeFileSync(readmePath, updated);
}
// Example workflows: the structure GitHub requires, and `with:` keys each action really has.
const workflow = z.looseObject({
  name: z.string().optional(),
  on: z.union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())]),
  jobs: z.record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/),
    z.looseObject({
      "runs-on": z.union([z.string(), z.array(z.string())]),
      steps: z
        .array(
          z
            .looseObject({
              uses: z.string().optional(),
              run: z.string().optional(),
              with: z.record(z.string(), z.unknown()).optional(),
            })
            .refine(
              (s) => (s.uses === undefined) !== (s.run === undefined),
              "a step has exactly one of uses and run",
            ),
        )
        .min(1),
    }),
  ),
});
for (const file of readdirSync(join("examples", "workflows"))) {
  const where = join("examples", "workflows", file);
  const parsed = workflow.safeParse(parse(readFileSync(where, "utf8")));
  if (!parsed.success) {
    problems.push(
      `${where}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
    continue;
  }
  for (const [jobName, job] of Object.entries(parsed.data.jobs)) {
    for (const step of job.steps) {
      const action = /\/actions\/([a-z-]+)@/.exec(step.uses ?? "")?.[1];
      if (!action) continue;
      const meta = parse(readFileSync(join("actions", action, "action.yml"), "utf8")) as Metadata;
      const given = Object.keys(step.with ?? {});
      for (const key of given)
        if (!(key in meta.inputs))
          problems.push(`${where}: job ${jobName} gives ${action} an unknown input ${key}`);
      for (const [key, input] of Object.entries(meta.inputs))
        if (input.required && !given.includes(key))
          problems.push(`${where}: job ${jobName} does not give ${action} its required input ${key}`);
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(
  check ? "action.yml files, README tables and example workflows agree." : "README tables written.",
);
