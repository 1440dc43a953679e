import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// The README starts with the two commands a fresh machine needs: one sets the clone up and runs the
// demo, one runs the tests. They stay what the repository runs: pnpm at the version package.json
// pins, scripts package.json has, and the test command .ci/run's test stage runs on every landing
// (which installs, builds and tests a clean clone the same way).

const root = fileURLToPath(new URL("../../", import.meta.url));
const readme = readFileSync(join(root, "README.md"), "utf8");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  packageManager: string;
  scripts: Record<string, string>;
};
const ciRun = readFileSync(join(root, ".ci/run"), "utf8");

it("starts with the set-up and demo command, then the test command, as the repository runs them", () => {
  const first = /^```sh\n([\s\S]*?)^```/m.exec(readme);
  expect(first, "the README's first code block").not.toBeNull();
  // Before it, only the title and a few lines of what cwp is.
  expect(readme.slice(0, first?.index).split("\n").length).toBeLessThan(15);
  const commands = (first?.[1] ?? "")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));
  const pnpm = manifest.packageManager.replace(/^pnpm@/, "");
  expect(commands).toEqual([
    `npm install -g pnpm@${pnpm} && pnpm install --frozen-lockfile && pnpm demo`,
    "pnpm test",
  ]);
  expect(manifest.scripts.demo).toBeDefined();
  const testStage = ciRun.slice(ciRun.indexOf(`stage "test (the README's test command)"`));
  expect(testStage).toMatch(/^pnpm test \|\| status=\$\?$/m);
  expect(ciRun).toContain("pnpm install --frozen-lockfile");
});

/** The machine's own Node, as a fresh machine runs the README's command: the first on PATH outside node_modules. */
function machinePath(): string {
  return (process.env.PATH ?? "")
    .split(delimiter)
    .filter((folder) => !folder.includes("node_modules"))
    .join(delimiter);
}

it("sets a fresh clone up quietly on the machine's Node: no engine warnings, no question about core-js's build", {
  timeout: 180_000,
}, async () => {
  const clone = join(await mkdtemp(join(tmpdir(), "cwp-readme-")), "clone");
  execFileSync("git", ["clone", "-q", "--shared", root, clone]);
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("TURBO_") && !k.startsWith("npm_")),
  );
  const node = execFileSync("node", ["--version"], {
    env: { ...env, PATH: machinePath() },
    encoding: "utf8",
  });
  // The README's set-up, as written (pnpm is on the machine already), before the demo.
  const install = spawnSync("pnpm", ["install", "--frozen-lockfile", "--prefer-offline"], {
    cwd: clone,
    env: { ...env, PATH: machinePath(), CI: "true" },
    encoding: "utf8",
  });
  const printed = install.stdout + install.stderr;
  expect(install.status, printed).toBe(0);
  expect(printed, `on Node ${node}`).not.toMatch(/Unsupported engine/);
  expect(printed).not.toMatch(/Ignored build scripts|approve-builds/);
  await rm(clone, { recursive: true, force: true });
});
