// pnpm check:changesets: every package changed since the last release is named by a pending
// changeset. The last release is the last commit that consumed changesets (`changeset version`
// deletes the files it consumes), or the first commit where none has yet. changesets' own
// `changeset status --since=main` cannot say this on CI's clean clone of main, where main is HEAD
// and nothing has changed since; it also passes wherever any changeset at all is pending. Which
// packages changed is changesets' own reading (@changesets/git, the file's package by its folder),
// and which are named is theirs too (@changesets/read). A change no user notices still names the
// packages it touches, in a changeset that says so.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getChangedPackagesSinceRef } from "@changesets/git";
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
};
const since = lastRelease();
const changed = (await getChangedPackagesSinceRef({ cwd, ref: since.commit }))
  // What changesets versions (its own rule): not an ignored package, not one without a version,
  // nor a private one unless it versions those.
  .filter(
    (pkg) =>
      !shouldSkipPackage(pkg, {
        ignore: config.ignore ?? [],
        allowPrivatePackages: config.privatePackages?.version !== false,
      }),
  )
  .map((pkg) => pkg.packageJson.name);
const named = new Set(
  (await readChangesets(cwd)).flatMap((changeset) => changeset.releases.map((r) => r.name)),
);
const missing = [...new Set(changed)].filter((name) => !named.has(name)).sort();
if (missing.length > 0) {
  console.error(
    `${missing.length} package(s) changed since ${since.what} and named by no pending changeset: ${missing.join(", ")}.\nFix: \`pnpm changeset\`, naming each with what a user notices (or that no user notices it), and commit .changeset/*.md.`,
  );
  process.exit(1);
}
console.log(
  `${changed.length} package(s) changed since ${since.what}; each is named by a pending changeset.`,
);
