import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { controlPlane, startEmulator } from "@cwp/emulator";
import { afterAll, beforeAll, expect, it } from "vitest";

// @cwp/client as a user gets it: packed into a tarball, installed with npm into a project outside
// the workspace, the README's example type-checked with TypeScript (node16 resolution, strict) as
// written, then run against the emulator.

const exec = promisify(execFile);
/**
 * What pnpm and turbo set for a script, which a user's shell has not (the user's own npm
 * configuration, `npm_config_cache` or `npm_config_registry`, stays).
 */
const SCRIPT_VARIABLES =
  /^(npm_(command|execpath|node_execpath|package_.*|lifecycle_.*|config_user_agent|config_verify_deps_before_run)|pnpm_.*|TURBO_.*)$/i;
/** A step of the test, bounded, with the environment of a user's shell. */
const run = (file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) =>
  exec(file, args, {
    timeout: 120_000,
    ...options,
    env: Object.fromEntries(
      Object.entries(options.env ?? process.env).filter(([name]) => !SCRIPT_VARIABLES.test(name)),
    ),
  });
const clientDir = new URL("../../client/", import.meta.url).pathname;
// TypeScript 7's compiler, as `npm install typescript` gives a user today (`@typescript/native`).
const tsc = join(
  dirname(
    createRequire(import.meta.url).resolve("@typescript/native/package.json", {
      paths: [new URL("../../../", import.meta.url).pathname],
    }),
  ),
  "bin/tsc",
);

let project: string;
let emulator: Awaited<ReturnType<typeof startEmulator>>;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "cwp-consumer-"));
  emulator = await startEmulator({ port: 0, speed: 60 });
});
afterAll(async () => {
  await emulator?.close();
  await rm(project, { recursive: true, force: true });
});

/** The README's `ts` blocks of "Create a client", "Start a build and wait for it" and the large read, in order. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(clientDir, "README.md"), "utf8");
  const block = (heading: string) =>
    new RegExp(`## ${heading}\\n[\\s\\S]*?\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(readme)?.[1];
  const parts = [
    block("Create a client"),
    block("Start a build and wait for it"),
    block("Read a large usage list as it arrives"),
  ];
  expect(parts.every((p) => p !== undefined)).toBe(true);
  return parts.join("\n");
}

it("installs from its tarball with npm, type-checks the README example, and runs it", {
  timeout: 300_000,
}, async () => {
  const { stdout } = await run("pnpm", ["pack", "--pack-destination", project], { cwd: clientDir });
  const tarball = stdout.trim().split("\n").at(-1) as string;
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({
      name: "consumer",
      private: true,
      type: "module",
      dependencies: { "@cwp/client": `file:${tarball}` },
    }),
  );
  // From npm's cache where it can: the step should not wait on the registry for what it has. A
  // registry it cannot reach fails npm itself within seconds, with npm's own error in the test's
  // (one retry, 30 s a request), rather than hanging until the step's timeout says nothing.
  await run(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--fetch-retries=1",
      "--fetch-timeout=30000",
      "@types/node@24",
    ],
    { cwd: project },
  );
  await writeFile(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "node16",
        moduleResolution: "node16",
        target: "es2022",
        strict: true,
        noEmit: true,
        types: ["node"],
        skipLibCheck: true,
      },
      include: ["example.ts"],
    }),
  );
  const example = await readmeExample();
  await writeFile(join(project, "example.ts"), example);
  await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project });

  // The same text, pointed at the emulator's seeded project and service.
  const fixtures = (await controlPlane(emulator.url)("GET", "fixtures")) as { tokens: { org: string } };
  await writeFile(
    join(project, "example.ts"),
    example
      .replace("https://api.example-platform.com", emulator.url)
      .replaceAll('"my-project"', '"platform-web"')
      .replaceAll('"api"', '"web"'),
  );
  const ran = await run(process.execPath, ["example.ts"], {
    cwd: project,
    env: { ...process.env, CWP_API_TOKEN: fixtures.tokens.org },
  });
  expect(ran.stdout).toMatch(/build [a-z]+-[a-z]+-\d+: SUCCESS/);
  expect(ran.stdout).toMatch(/page 1: 90 days\nread 90 days/);
});
