import { execFileSync, spawnSync } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";

// Every command in CONTRIBUTING.md's shell blocks, as a contributor types it: run here as written
// (from the clone's root, exit 0, no tracked file changed), or run as written by .ci/run itself.

const root = fileURLToPath(new URL("../../", import.meta.url));
const contributing = await readFile(join(root, "CONTRIBUTING.md"), "utf8");
const ciRun = await readFile(join(root, ".ci/run"), "utf8");

/** Each line of each ```sh block. */
const commands = [...contributing.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap(([, block]) =>
  (block ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#")),
);

/** What .ci/run runs as written on every landing (the whole suite among them). */
const RUN_BY_CI = [
  "pnpm test",
  "pnpm build",
  "pnpm check:dist",
  "pnpm lint",
  "pnpm typecheck",
  "pnpm check:changesets",
  'pnpm test:at "2028-02-29 23:50" "2027-01-01 00:20" --filter=@cwp/cost-report',
];
/** How CI itself is run: on a clean clone, from outside. */
const CI_ITSELF = /^git clone \. \/tmp\/cwp-ci && cd \/tmp\/cwp-ci && .* bash \.ci\/run$/;

/** The files git tracks that differ from the commit, to see that a command changed none. */
const changedFiles = () =>
  execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: root, encoding: "utf8" });

/** A contributor's shell: nothing of the test run this test is in (a nested run builds as its own). */
function run(command: string) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("TURBO_") && k !== "CWP_TESTS_BUILT"),
  );
  return spawnSync("bash", ["-c", command], {
    cwd: root,
    encoding: "utf8",
    env: { ...env, CWP_TEST_RESULTS_FILE: join(tmpdir(), `cwp-contributing-${process.pid}.json`) },
    timeout: 240_000,
  });
}

describe("CONTRIBUTING.md's commands", () => {
  it("are each run here or by .ci/run", () => {
    expect(commands.length).toBeGreaterThan(10);
    for (const command of RUN_BY_CI) expect(ciRun, command).toMatch(new RegExp(`^${command}(?= |$)`, "m"));
    expect(commands.filter((c) => CI_ITSELF.test(c))).toHaveLength(1);
  });

  const here = commands.filter(
    (c) => !RUN_BY_CI.includes(c) && !CI_ITSELF.test(c) && c !== "pnpm test:changed",
  );
  for (const command of here)
    it(`runs as written: ${command}`, { timeout: 300_000 }, async () => {
      const before = changedFiles();
      const changesets = new Set(await readdir(join(root, ".changeset")));
      const result = run(command);
      // What `pnpm changeset --empty` writes is the contributor's to commit: made, then taken away.
      const made = (await readdir(join(root, ".changeset"))).filter((f) => !changesets.has(f));
      await Promise.all(made.map((f) => rm(join(root, ".changeset", f))));
      expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(changedFiles()).toBe(before);
      if (command.endsWith("--empty")) expect(made).toHaveLength(1);
      if (command.includes(" -t "))
        expect(stripVTControlCharacters(result.stdout)).toMatch(/Tests\s+1 passed \| 2 skipped/);
    });

  // With a change since main it would test that change (this package's tests among them, in a
  // loop); on a clean clone of main, as CI has it, it runs as written and finds nothing to test.
  const changedSinceMain =
    execFileSync("git", ["diff", "--name-only", "main"], { cwd: root, encoding: "utf8" }).trim() !== "";
  it.skipIf(changedSinceMain)(
    "runs as written on a clean clone of main: pnpm test:changed",
    { timeout: 300_000 },
    () => {
      expect(commands).toContain("pnpm test:changed");
      const result = run("pnpm test:changed");
      expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    },
  );
});

describe("the root's scripts", () => {
  it("each run as `pnpm <name>`: none is one of pnpm's own commands, which would run instead", async () => {
    // pnpm's own commands and their aliases, as its shell completion offers them after `pnpm `
    // (`setup` among them, which `pnpm help --all` does not list): one pnpm start, not one a script.
    // SHELL is named, not inherited: the completion refuses to answer without one (CI's machine has
    // none), and its lines carry descriptions for zsh or fish.
    const completion = execFileSync("pnpm", ["completion-server"], {
      encoding: "utf8",
      env: { ...process.env, SHELL: "bash", COMP_CWORD: "1", COMP_LINE: "pnpm ", COMP_POINT: "5" },
    });
    const own = new Set(completion.split("\n").filter((word) => /^[a-z]/.test(word)));
    expect(own.has("setup"), completion).toBe(true);
    const { scripts } = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(Object.keys(scripts).filter((name) => own.has(name))).toEqual([]);
  });
});
