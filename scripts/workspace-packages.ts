// The workspace's packages that have a given script, with their folders: those with tests are the
// root's vitest run's (vitest.config.ts) and what `pnpm test --filter=...` may pick among
// (scripts/test.ts); those with a `typecheck` are what `pnpm typecheck` checks (scripts/typecheck.ts).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = fileURLToPath(new URL("..", import.meta.url));

/** A workspace package: its name, its folder (from the root) and the script it was picked by. */
export interface WorkspacePackage {
  name: string;
  dir: string;
  /** The text of that script. */
  script: string;
}

/** pnpm-workspace.yaml's folders (`dir/*` expanded) whose package.json has the script `script`. */
export function packagesWith(script: string): WorkspacePackage[] {
  const { packages } = parse(readFileSync(join(root, "pnpm-workspace.yaml"), "utf8")) as {
    packages: string[];
  };
  const dirs = packages.flatMap((pattern) =>
    pattern.endsWith("/*")
      ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(pattern.slice(0, -2), entry.name))
      : [pattern],
  );
  return dirs.flatMap((dir) => {
    const manifest = join(root, dir, "package.json");
    if (!statSync(manifest, { throwIfNoEntry: false })) return [];
    const { name, scripts } = JSON.parse(readFileSync(manifest, "utf8")) as {
      name: string;
      scripts?: Record<string, string>;
    };
    const text = scripts?.[script];
    return text ? [{ name, dir, script: text }] : [];
  });
}

/** The packages with a `test` script. */
export const packagesWithTests = () => packagesWith("test");
