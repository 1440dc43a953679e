// pnpm check:changesets: every package changed since the last release is named by a pending
// changeset; on a branch, every package changed on it is named by a changeset the branch adds. The last release is the last commit that consumed changesets (`changeset version`
// deletes the files it consumes), or the first commit where none has yet. changesets' own
// `changeset status --since=main` cannot say this on CI's clean clone of main, where main is HEAD
// and nothing has changed since; it also passes wherever any changeset at all is pending. Which
// packages changed is changesets' own reading (@changesets/git, the file's package by its folder),
// and which are named is theirs too (@changesets/read). A change no user notices still names the
// packages it touches, in a changeset that says so.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getChangedChangesetFilesSinceRef, getChangedPackagesSinceRef } from "@changesets/git";
import { readChangesets } from "@changesets/read";
import { shouldSkipPackage } from "@changesets/should-skip-package";

const cwd = process.cwd();
const git = (...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

/** The last commit that deleted a changeset, as `changeset version` does; else the first commit. */
function lastRelease(): { commit: string; what: string } {
  const consumed = git(
    "log",
    "-1",
    "--diff-filter=D",
    "--format=%H",
    "--",
    ".changeset/*.md",
    ":!.changeset/README.md",
  );
  if (consumed)
    return {
      commit: consumed,
      what: `the last release (${consumed.slice(0, 12)}, which consumed changesets)`,
    };
  const first = git("rev-list", "--max-parents=0", "HEAD").split("\n").at(-1) ?? "";
  return {
    commit: first,
    what: `the first commit (${first.slice(0, 12)}; no release has consumed changesets yet)`,
  };
}

const config = JSON.parse(readFileSync(join(cwd, ".changeset/config.json"), "utf8")) as {
  ignore?: string[];
  privatePackages?: { version?: boolean };
  baseBranch?: string;
};
const FIX =
  "Fix: `pnpm changeset`, naming each with what a user notices (or that no user notices it), and commit .changeset/*.md.";

/** The packages changesets versions that changed since `ref` (its own rule for what it skips). */
async function changedSince(ref: string): Promise<string[]> {
  const changed = (await getChangedPackagesSinceRef({ cwd, ref }))
    // Not an ignored package, not one without a version, nor a private one unless it versions those.
    .filter(
      (pkg) =>
        !shouldSkipPackage(pkg, {
          ignore: config.ignore ?? [],
          allowPrivatePackages: config.privatePackages?.version !== false,
        }),
    )
    .map((pkg) => pkg.packageJson.name);
  return [...new Set(changed)].sort();
}

/** The packages the pending changesets name; only those of `files` (paths) where given. */
async function namedBy(files?: string[]): Promise<Set<string>> {
  const ids = files && new Set(files.map((f) => f.replace(/^.*\/|\.md$/g, "")));
  return new Set(
    (await readChangesets(cwd))
      .filter((changeset) => !ids || ids.has(changeset.id))
      .flatMap((changeset) => changeset.releases.map((r) => r.name)),
  );
}

// The release's check: the changelog the next release writes mentions every package it versions.
const since = lastRelease();
const changed = await changedSince(since.commit);
const named = await namedBy();
const missing = changed.filter((name) => !named.has(name));
if (missing.length > 0) {
  console.error(
    `${missing.length} package(s) changed since ${since.what} and named by no pending changeset: ${missing.join(", ")}.\n${FIX}`,
  );
  process.exit(1);
}
console.log(
  `${changed.length} package(s) changed since ${since.what}; each is named by a pending changeset.`,
);

// A branch's check, as changesets has it on a pull request (`changeset status --since=main`): a
// changeset for each change, not one that an earlier change's changeset already covers, so that the
// changelog mentions this change too. On the base branch itself (CI's clone) there is no branch.
const base = config.baseBranch ?? "main";
const branch = git("rev-parse", "--abbrev-ref", "HEAD");
const hasBase =
  spawnSync("git", ["rev-parse", "--verify", "--quiet", `refs/heads/${base}`], { cwd }).status === 0;
if (branch !== base && branch !== "HEAD" && hasBase) {
  const mergeBase = git("merge-base", "HEAD", base);
  const onBranch = await changedSince(base);
  const branchNames = await namedBy(await getChangedChangesetFilesSinceRef({ cwd, ref: base }));
  const unnamed = onBranch.filter((name) => !branchNames.has(name));
  const where = `on branch ${branch} (since ${mergeBase.slice(0, 12)}, where it left ${base})`;
  if (unnamed.length > 0) {
    console.error(
      `${unnamed.length} package(s) changed ${where} and named by no changeset the branch adds or changes: ${unnamed.join(", ")}. An earlier pending changeset does not count: the release's changelog would not mention this change.\n${FIX}`,
    );
    process.exit(1);
  }
  console.log(`${onBranch.length} package(s) changed ${where}; each is named by a changeset of the branch.`);
}
