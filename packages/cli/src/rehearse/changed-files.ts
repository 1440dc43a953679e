import { git } from "./git.js";

// The files an event changed, which `paths` and `paths-ignore` filters read, as GitHub computes
// them ("Workflow syntax for GitHub Actions", on.<push|pull_request>.paths, "Git diff
// comparisons"): for a pull request, a three-dot diff (its head against the commit it last shared
// with its base branch); for a push to an existing branch, a two-dot diff (the branch as the remote
// has it against the commit pushed); for a push of a new branch or a tag, a two-dot diff against the
// parent of the deepest commit pushed. What a push would send is what the clone has and its remote
// (origin) does not. A clone with no remote pushes nowhere: its commit's own changes stand in.

const lines = (text: string | undefined) =>
  text === undefined ? undefined : text.split("\n").filter(Boolean);

/** Whether `ref` names a commit in the clone. */
const resolves = (dir: string, ref: string) =>
  git(dir, ["rev-parse", "--verify", "-q", `${ref}^{commit}`]) !== undefined;

export interface ChangedFilesEvent {
  name: string;
  /** The commit the event is for. */
  sha: string;
  /** The pushed ref (`refs/heads/x`, `refs/tags/v1`). */
  ref: string;
  /** A pull request's base branch. */
  baseRef?: string | undefined;
}

/** The files the event changed, or undefined where git cannot tell (the commit is not in the clone). */
export function changedFiles(dir: string, event: ChangedFilesEvent): string[] | undefined {
  if (!resolves(dir, event.sha)) return undefined;
  const own = () =>
    lines(git(dir, ["diff-tree", "--no-commit-id", "--name-only", "-r", "--root", event.sha]));
  if (!lines(git(dir, ["remote"]))?.includes("origin")) return own();
  if (event.name === "pull_request" || event.name === "pull_request_target") {
    const base = [`refs/remotes/origin/${event.baseRef}`, `refs/heads/${event.baseRef}`].find(
      (ref) => event.baseRef !== undefined && resolves(dir, ref),
    );
    return base === undefined ? own() : lines(git(dir, ["diff", "--name-only", `${base}...${event.sha}`]));
  }
  if (event.name !== "push") return own();
  const branch = event.ref.startsWith("refs/heads/") ? event.ref.slice("refs/heads/".length) : undefined;
  const existing = branch === undefined ? undefined : `refs/remotes/origin/${branch}`;
  if (existing !== undefined && resolves(dir, existing))
    return lines(git(dir, ["diff", "--name-only", existing, event.sha]));
  // A new branch or a tag: from the parent of the deepest commit the remote does not have.
  const deepest = lines(git(dir, ["rev-list", "--reverse", event.sha, "--not", "--remotes=origin"]))?.[0];
  if (deepest === undefined) return [];
  return resolves(dir, `${deepest}^`)
    ? lines(git(dir, ["diff", "--name-only", `${deepest}^`, event.sha]))
    : lines(git(dir, ["ls-tree", "-r", "--name-only", event.sha]));
}
