import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, expect, it } from "vitest";

// pnpm check:dist after a build: a committed bundle that is not what the build made fails the check,
// naming the file and the fix. Run in a repository of its own, as after `pnpm build` in CI: the
// working tree holds the fresh build, the commit the bundles users get.

const root = fileURLToPath(new URL("../../", import.meta.url));
const check = join(root, "scripts/check-dist.ts");
let repo: string;
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
const runCheck = () => spawnSync(process.execPath, [check], { cwd: repo, encoding: "utf8" });

beforeEach(async () => {
  repo = await mkdtemp(join(tmpdir(), "cwp-check-dist-"));
  git("init", "-q");
  git("config", "user.email", "test@example.com");
  git("config", "user.name", "test");
  for (const action of ["fetch-logs", "run-job"]) {
    await mkdir(join(repo, `actions/${action}/dist`), { recursive: true });
    await mkdir(join(repo, `actions/${action}/src`), { recursive: true });
    await writeFile(join(repo, `actions/${action}/dist/index.js`), `// ${action}, built\n`);
    await writeFile(join(repo, `actions/${action}/src/main.ts`), `// ${action}\n`);
  }
  git("add", ".");
  git("commit", "-q", "-m", "bundles");
});
afterEach(() => rm(repo, { recursive: true, force: true }));

it("passes when the fresh build is the committed bundle, and a change outside dist/ is no bundle's", async () => {
  await writeFile(join(repo, "actions/run-job/src/main.ts"), "// changed, not yet built\n");
  const result = runCheck();
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
});

it("fails when a fresh build differs from the committed bundle, naming the file and the fix", async () => {
  await writeFile(
    join(repo, "actions/fetch-logs/dist/index.js"),
    "// fetch-logs, built from newer sources\n",
  );
  const result = runCheck();
  expect(result.status).toBe(1);
  expect(result.stderr).toContain("actions/fetch-logs/dist/index.js: differs");
  expect(result.stderr).toContain("run `pnpm build` and commit actions/*/dist");
  expect(result.stderr).not.toContain("run-job");
});

it("fails on a file the build made that is not committed (a new chunk), and on one it no longer makes", async () => {
  await writeFile(join(repo, "actions/run-job/dist/chunk-1.js"), "// a chunk\n");
  await rm(join(repo, "actions/fetch-logs/dist/index.js"));
  const result = runCheck();
  expect(result.status).toBe(1);
  expect(result.stderr).toContain("actions/run-job/dist/chunk-1.js: new, not committed");
  expect(result.stderr).toContain("actions/fetch-logs/dist/index.js: committed, no longer built");
});

it("is what .ci/run and ci.yml run after their build", async () => {
  for (const file of [".ci/run", ".github/workflows/ci.yml"]) {
    const text = await readFile(join(root, file), "utf8");
    expect(text.indexOf("pnpm check:dist"), file).toBeGreaterThan(text.indexOf("pnpm build"));
  }
});
