// Vitest's global set-up for every package: tests run what was built (an action's committed
// bundle, a package's dist/), so tests started outside turbo (`pnpm --filter X test`, `vitest` in a
// package folder, a rerun in watch mode) build their package and what it needs first, through
// turbo: a cache hit when nothing changed (under a second), else the build a change needs. Never a
// bundle older than its sources. `pnpm test` and `pnpm test:changed` (scripts/test.ts) build what
// they test before vitest starts, and say so (CWP_TESTS_BUILT).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

const root = fileURLToPath(new URL("..", import.meta.url));

function build(name: string): void {
  const command = ["turbo", "run", "build", `--filter=${name}`, "--output-logs=errors-only"];
  console.log(`Tests run what is built: ${command.join(" ")}`);
  try {
    execFileSync(join(root, "node_modules/.bin/turbo"), command.slice(1), {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
    });
  } catch {
    throw new Error(
      `The build of ${name} failed (above): no test run on an older build. Fix it, or see \`pnpm build\`.`,
    );
  }
}

export default function setup(project: TestProject): void {
  if (process.env.CWP_TESTS_BUILT) return;
  const { name } = JSON.parse(readFileSync(join(project.config.root, "package.json"), "utf8")) as {
    name: string;
  };
  build(name);
  project.onTestsRerun(() => build(name));
}
