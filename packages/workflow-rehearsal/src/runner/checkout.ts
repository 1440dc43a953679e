import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { CheckoutStep, StepResult } from "../records.js";
import type { JobFolders } from "./workspace.js";

// What actions/checkout makes of the repository being rehearsed, made in the rehearsal's
// workspace copy: a git repository at the rehearsed commit, its history as deep as `fetch-depth`
// says and its tags as `fetch-tags` says, fetched from the user's clone as checkout fetches from
// GitHub (actions/checkout src/git-source-provider.ts and src/ref-helper.ts @0ff8af69: getRefSpec,
// getRefSpecForAllHistory, getCheckoutInfo). The files are the copy's: what the user has not
// committed yet stays in the workspace as changes to that commit, which is what is rehearsed.
// git runs with the rehearsal's HOME, no system config and no template (so no hooks of the user's).

const run = promisify(execFile);

export interface CheckoutRunnerOptions {
  /** The user's clone, fetched from (never written). */
  clone: string;
  folders: JobFolders;
  /** owner/name: origin's URL, as on GitHub. */
  repository: string;
  onLine(line: string): void;
}

export function checkoutRunner(options: CheckoutRunnerOptions): (step: CheckoutStep) => Promise<StepResult> {
  const { folders } = options;
  const git = async (args: string[]) =>
    (
      await run("git", args, {
        cwd: folders.workspace,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: folders.home,
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_TERMINAL_PROMPT: "0",
          LC_ALL: "C",
        },
        maxBuffer: 64 * 1024 * 1024,
      })
    ).stdout.trim();
  return async (step): Promise<StepResult> => {
    const { ref, sha } = step;
    const branch = ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : undefined;
    const pull = ref.startsWith("refs/pull/") ? ref.slice("refs/pull/".length) : undefined;
    // Where the commit lands: its branch's remote-tracking ref, its tag, or the pull request's ref.
    const destination =
      branch !== undefined
        ? `refs/remotes/origin/${branch}`
        : pull !== undefined
          ? `refs/remotes/pull/${pull}`
          : ref.startsWith("refs/tags/")
            ? ref
            : undefined;
    const target = destination !== undefined ? `+${sha}:${destination}` : sha;
    // All history (fetch-depth 0): every branch and tag, then the commit where its ref is not
    // there already (getRefSpecForAllHistory, then testRef and getRefSpec); else the commit alone.
    const allHistory = ["+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*"];
    try {
      await git(["init", "--quiet", "--template=", "."]);
      await git(["remote", "add", "origin", `https://github.com/${options.repository}`]);
      options.onLine(`Fetching ${sha.slice(0, 12)} (${ref}) from ${options.clone}, as from origin`);
      const fetch = (refSpecs: string[]) =>
        git([
          "-c",
          "protocol.file.allow=always",
          "fetch",
          // The clone stands in for GitHub, which serves any commit it has by its sha.
          "--upload-pack=git -c uploadpack.allowAnySHA1InWant=true upload-pack",
          "--prune",
          "--no-recurse-submodules",
          ...(step.fetchDepth > 0 ? [`--depth=${step.fetchDepth}`] : []),
          ...(step.fetchDepth > 0 && !step.fetchTags ? ["--no-tags"] : []),
          options.clone,
          ...refSpecs,
        ]);
      if (step.fetchDepth > 0) await fetch([target]);
      else {
        await fetch(allHistory);
        const at =
          destination && (await git(["rev-parse", "--verify", "--quiet", destination]).catch(() => ""));
        if (at !== sha) await fetch([target]);
      }
      // On the branch at the commit, or detached at a tag or a pull request's ref; the index at
      // the commit, the files left as they are (what is not committed shows as changes).
      if (branch !== undefined) {
        await git(["update-ref", `refs/heads/${branch}`, sha]);
        await git(["symbolic-ref", "HEAD", `refs/heads/${branch}`]);
        await git(["branch", "--quiet", `--set-upstream-to=origin/${branch}`, branch]).catch(() => "");
      } else await git(["update-ref", "--no-deref", "HEAD", sha]);
      await git(["reset", "--quiet"]);
      const changed = (await git(["status", "--porcelain", "--untracked-files=all"]))
        .split("\n")
        .filter(Boolean);
      const depth = step.fetchDepth > 0 ? `the last ${step.fetchDepth} commit(s)` : "all history and tags";
      options.onLine(`HEAD is now at ${sha.slice(0, 12)} (${branch ?? ref}), with ${depth}`);
      if (changed.length > 0)
        options.onLine(
          `${changed.length} file(s) you have not committed are in the workspace as changes to that commit (git status shows them; on GitHub they are not there until you push them)`,
        );
      return { code: 0, outputs: { ref, commit: sha } };
    } catch (error) {
      const message = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
      options.onLine(`Error: checkout of ${sha.slice(0, 12)} from ${options.clone} failed: ${message}`);
      return { code: 1, outputs: {} };
    }
  };
}
