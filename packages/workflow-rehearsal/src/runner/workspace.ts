import { execFileSync } from "node:child_process";
import { chmod, copyFile, lstat, mkdir, readlink, rm, symlink } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";

// Where `--run-shell` runs a job's steps: never in the user's clone or home. A runner checks the
// repository out into a workspace of its own and gives each job a HOME, RUNNER_TEMP and
// RUNNER_TOOL_CACHE of its own ("Variables reference",
// https://docs.github.com/en/actions/reference/workflows-and-actions/variables); here those are
// folders of the rehearsal's, the workspace a copy of the clone as a checkout would have it plus
// what the user has not committed yet: tracked files and untracked ones git does not ignore.

export interface RunnerFolders {
  /** Whether the workspace holds the clone's files (false: the workflow is in no git clone, the workspace is empty). */
  copied?: boolean;
  /** The copy of the repository: github.workspace, GITHUB_WORKSPACE and every step's working folder. */
  workspace: string;
  home: string;
  temp: string;
  toolCache: string;
  /** Scripts with their values expanded (secrets among them), each removed once its step ends; this folder at the end. */
  scripts: string;
}

/** The folders under `folder`, the workspace a copy of the git clone at `clone`. */
export async function prepareRunnerFolders(clone: string, folder: string): Promise<RunnerFolders> {
  const folders: RunnerFolders = {
    workspace: join(folder, "workspace"),
    home: join(folder, "home"),
    temp: join(folder, "temp"),
    toolCache: join(folder, "tool-cache"),
    scripts: join(folder, ".scripts"),
  };
  for (const path of Object.values(folders)) await mkdir(path, { recursive: true });
  // Only the rehearsal's user may read the scripts, which hold secrets until they are removed.
  await chmod(folders.scripts, 0o700);
  const copied = await copyRepository(clone, folders.workspace);
  return { ...folders, copied };
}

/** The clone's tracked files and untracked ones git does not ignore, into `to` (a submodule's folder is left out); false where `clone` is none. */
async function copyRepository(clone: string, to: string): Promise<boolean> {
  let listed: string;
  try {
    listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: clone,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return false;
  }
  for (const path of new Set(listed.split("\0").filter(Boolean))) {
    const from = join(clone, path);
    const target = join(to, path);
    const stat = await lstat(from).catch(() => undefined);
    // Deleted but still tracked, or a submodule (a folder): nothing to copy.
    if (!stat || stat.isDirectory()) continue;
    await mkdir(dirname(target), { recursive: true });
    if (stat.isSymbolicLink()) {
      // A link into the clone points into the copy; any other stays as it was written.
      const link = await readlink(from);
      const inside = isAbsolute(link) && !relative(clone, link).startsWith("..");
      await symlink(inside ? resolve(to, relative(clone, link)) : link, target);
    } else await copyFile(from, target);
  }
  return true;
}

/** Removes the scripts (and the files steps wrote for the runner), whatever way the rehearsal ends. */
export const removeScripts = (folders: RunnerFolders) =>
  rm(folders.scripts, { recursive: true, force: true });
