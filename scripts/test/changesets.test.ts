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

describe("pnpm check:changesets on a clean clone", () => {
  it("passes as the clone is, fails on a change made after a release without a changeset naming it, passes with one", async () => {
    const clone = join(await mkdtemp(join(tmpdir(), "cwp-changesets-")), "clone");
    execFileSync("git", ["clone", "-q", "--shared", root, clone]);
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=dev@example.com", "-c", "user.name=dev", ...args], {
        cwd: clone,
        encoding: "utf8",
      });
    const check = () => spawnSync(process.execPath, [CHECK], { cwd: clone, encoding: "utf8" });
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
