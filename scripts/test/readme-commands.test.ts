import { readFileSync } from "node:fs";
import { join } from "node:path";
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
