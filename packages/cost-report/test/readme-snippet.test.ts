import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// The README's script, as a user pastes it into a TypeScript project: it type-checks under
// `strict`, against this package's and @cwp/client's published types.

const here = fileURLToPath(new URL("..", import.meta.url));
// TypeScript 7's compiler, as the repository's own checks run it (`@typescript/native`).
const tsc = join(
  dirname(createRequire(join(here, "../../package.json")).resolve("@typescript/native/package.json")),
  "bin/tsc",
);

it("the README's script type-checks with tsc --strict", { timeout: 300_000 }, async () => {
  const readme = await readFile(join(here, "README.md"), "utf8");
  const snippet = /## From a script\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(snippet).toContain("writeCostReport(client");
  // Inside the package, so that both packages resolve as a user's node_modules would give them.
  const folder = await mkdtemp(join(here, ".readme-snippet-"));
  try {
    await writeFile(join(folder, "script.ts"), snippet ?? "");
    const result = spawnSync(
      process.execPath,
      [
        tsc,
        "--ignoreConfig",
        "--strict",
        "--noEmit",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2023",
        "--types",
        "node",
        "script.ts",
      ],
      { cwd: folder, encoding: "utf8" },
    );
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
