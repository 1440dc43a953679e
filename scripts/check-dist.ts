// pnpm check:dist: every committed action bundle is, byte for byte, what a fresh build of its
// sources makes. A workflow that pins `acme/cwp/actions/<name>@v1` (or a SHA) runs the committed
// actions/<name>/dist, never the sources, so a stale bundle ships old code to every user.
//
// Run after a build (`pnpm check:dist` builds first; .ci/run and ci.yml run it after theirs): the
// fresh bundles are then in the working tree, and any difference from the commit (a file changed,
// added or gone) is a bundle that was not rebuilt, or not committed.
import { execFileSync } from "node:child_process";

const FIX = "run `pnpm build` and commit actions/*/dist";

/** What `git status` says of every file under an action's dist/ (untracked files one by one). */
function bundleDrift(cwd: string): string[] {
  // The pathspec must reach the files: 'actions/*/dist' alone matches no file inside dist/.
  const status = execFileSync(
    "git",
    ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--", ":(glob)actions/*/dist/**"],
    { cwd, encoding: "utf8" },
  );
  const entries = status.split("\0");
  const drift: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] ?? "";
    if (entry.length < 4) continue;
    const code = entry.slice(0, 2);
    // A rename or copy staged: its old path follows as an entry of its own.
    if (/[RC]/.test(code)) i++;
    const what =
      code === "??" ? "new, not committed" : code.includes("D") ? "committed, no longer built" : "differs";
    drift.push(`${entry.slice(3)}: ${what}`);
  }
  return drift;
}

const drift = bundleDrift(process.cwd());
if (drift.length > 0) {
  console.error("A committed action bundle is not what a fresh build of its sources makes:");
  for (const line of drift) console.error(`  ${line}`);
  console.error(`Fix: ${FIX}.`);
  if (process.env.GITHUB_ACTIONS === "true")
    console.log(`::error::A committed action bundle is stale: ${FIX}.`);
  process.exit(1);
}
console.log("Every committed action bundle is what a fresh build makes.");
