// pnpm typecheck: every package's types, as its own `pnpm typecheck` checks them (its tsconfig.json,
// read by TypeScript itself: `tsc --showConfig`), in one program per set of compiler options: the
// libraries', the bundled packages' (actions, CLI), the bench's, the examples'. A program per
// package (turbo's typecheck task) loaded Node's, zod's, undici's and vitest's declarations
// nineteen times: 32 s and 63 core-seconds on two cores, where these four take 12 s. What a
// package's check alone adds:
// its rootDir (that its files stay in its folder), which its own build still checks.
import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { packagesWith } from "./workspace-packages.ts";

const root = new URL("..", import.meta.url).pathname;
const bin = (name: string) => join(root, "node_modules/.bin", name);
const quiet = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" };
/** A package's own check: `tsc -p tsconfig.json`, after what generates its sources (also its build's). */
const OWN_CHECK = /(^|&& )tsc -p tsconfig\.json( --noEmit)?$/;

interface Shown {
  compilerOptions: Record<string, unknown>;
  files: string[];
}

const packages = packagesWith("typecheck");
for (const { name, script } of packages) {
  if (!OWN_CHECK.test(script)) {
    console.error(
      `${name}'s typecheck is not its tsconfig.json's check (tsc -p tsconfig.json), which this groups.`,
    );
    process.exit(1);
  }
}

// What the packages import of each other are their builds (declarations, generated sources such as
// the client's version and the CLI's action inputs), as turbo's typecheck task builds them first.
const build = spawnSync(bin("turbo"), ["run", "build", "--output-logs=errors-only"], {
  cwd: root,
  stdio: "inherit",
  env: quiet,
});
if (build.status !== 0) process.exit(build.status ?? 1);

const shown = await Promise.all(
  packages.map(async ({ name, dir }) => {
    const { stdout } = await promisify(execFile)(bin("tsc"), ["--showConfig", "-p", "tsconfig.json"], {
      cwd: join(root, dir),
      maxBuffer: 16 * 1024 * 1024,
    });
    const { compilerOptions, files } = JSON.parse(stdout) as Shown;
    const { rootDir: _own, ...options } = compilerOptions;
    return { name, options, files: files.map((file) => resolve(root, dir, file)) };
  }),
);

const groups = new Map<string, { names: string[]; options: Record<string, unknown>; files: string[] }>();
for (const { name, options, files } of shown) {
  const key = JSON.stringify(options);
  const group = groups.get(key) ?? { names: [], options, files: [] };
  group.names.push(name);
  group.files.push(...files);
  groups.set(key, group);
}

// Under the root's node_modules, where a config's `types` (Node's) are looked up from.
const folder = join(root, "node_modules/.cache/cwp-typecheck");
mkdirSync(folder, { recursive: true });
let failed = false;
for (const [index, { names, options, files }] of [...groups.values()].entries()) {
  const config = join(folder, `${index}.json`);
  writeFileSync(config, JSON.stringify({ compilerOptions: { ...options, rootDir: root }, files }, null, 2));
  console.log(`types of ${names.join(", ")}`);
  const check = spawnSync(bin("tsc"), ["-p", config], { cwd: root, stdio: "inherit" });
  if (check.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
