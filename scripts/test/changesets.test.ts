import { execFileSync, spawnSync } from "node:child_process";
import { appendFile, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// pnpm check:changesets where CI runs it, a clean clone of main: a change to a package since the
// last release (the last commit that consumed changesets) fails until a pending changeset names it.

const root = fileURLToPath(new URL("../../", import.meta.url));
const CHECK = join(root, "scripts/check-changesets.ts");

/** A clone of this repository on main, git in it, and the check run there. */
async function cloned() {
  const clone = join(await mkdtemp(join(tmpdir(), "cwp-changesets-")), "clone");
  execFileSync("git", ["clone", "-q", "--shared", root, clone]);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=dev@example.com", "-c", "user.name=dev", ...args], {
      cwd: clone,
      encoding: "utf8",
    });
  const check = () => spawnSync(process.execPath, [CHECK], { cwd: clone, encoding: "utf8" });
  return { clone, git, check };
}

describe("pnpm check:changesets on a clean clone", () => {
  it("passes as the clone is, fails on a change made after a release without a changeset naming it, passes with one", async () => {
    const { clone, git, check } = await cloned();
    const asCloned = check();
    expect(asCloned.status, asCloned.stdout + asCloned.stderr).toBe(0);
    // A release: `changeset version` consumes every pending changeset.
    const pending = (await readdir(join(clone, ".changeset"))).filter(
      (f) => f.endsWith(".md") && f !== "README.md",
    );
    git("rm", "-q", ...pending.map((f) => `.changeset/${f}`));
    git("commit", "-q", "-m", "Version packages");
    expect(check().status).toBe(0);
    // Then a change to the client, committed without a changeset.
    await appendFile(join(clone, "packages/client/src/index.ts"), "// a change\n");
    git("commit", "-q", "-am", "A change without a changeset");
    const without = check();
    expect(without.status).toBe(1);
    expect(without.stderr).toContain("named by no pending changeset: @cwp/client.");
    await writeFile(
      join(clone, ".changeset/client-change.md"),
      '---\n"@cwp/client": patch\n---\n\nA change.\n',
    );
    const named = check();
    expect(named.status, named.stderr).toBe(0);
    expect(named.stdout).toContain("1 package(s) changed since the last release");
  });
});

describe("pnpm check:changesets on a branch", () => {
  it("names a change with no changeset of its own although a pending changeset names its package, and passes once the branch adds one", async () => {
    const { clone, git, check } = await cloned();
    // Pending changesets on main already name @cwp/client (they name every package). Main is this
    // clone's HEAD, whichever branch it was cloned from.
    git("checkout", "-q", "-B", "main");
    git("checkout", "-q", "-b", "feature/retry");
    await appendFile(join(clone, "packages/client/src/index.ts"), "// a change\n");
    git("commit", "-q", "-am", "A change without a changeset");
    const without = check();
    expect(without.status).toBe(1);
    expect(without.stderr).toMatch(
      /1 package\(s\) changed on branch feature\/retry \(since [0-9a-f]{12}, where it left main\) and named by no changeset the branch adds or changes: @cwp\/client\./,
    );
    expect(without.stderr).toContain("`pnpm changeset`");
    await writeFile(
      join(clone, ".changeset/client-retry.md"),
      '---\n"@cwp/client": patch\n---\n\nA change.\n',
    );
    git("add", ".changeset/client-retry.md");
    git("commit", "-q", "-m", "Its changeset");
    const named = check();
    expect(named.status, named.stderr).toBe(0);
    expect(named.stdout).toContain("1 package(s) changed on branch feature/retry");
  });
});
