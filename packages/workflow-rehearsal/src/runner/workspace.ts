import { execFileSync } from "node:child_process";
import { chmod, copyFile, lstat, mkdir, readlink, rm, symlink } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";

// Where `--run-shell` runs a job's steps: never in the user's clone or home. On GitHub each job
// runs on a machine of its own, with a workspace, HOME and RUNNER_TEMP that no other job wrote
// ("Variables reference", https://docs.github.com/en/actions/reference/workflows-and-actions/variables),
// at the same paths in every job: a hosted runner's /home/runner and
// /home/runner/work/<repo>/<repo>, which workflows and @actions/cache (paths relative to the
// workspace) depend on. Here those are folders of the rehearsal's, laid out as a runner lays out
// its work folder (`_work/<repo>/<repo>`, `_work/_temp`, `_work/_actions`), emptied and made again as
// each job run begins (`freshJobFolders`): nothing one job leaves reaches another but what GitHub
// passes (its outputs). The workspace is a copy of the clone as a checkout would have it plus what
// the user has not committed yet: tracked files and untracked ones git does not ignore, copied anew
// for each job (a copy kept to copy from would cost a one-job rehearsal a second copy). The tool
// cache is the host's, kept from job to job and rehearsal to rehearsal, as a runner image has one
// (`<tool>/<version>/<arch>` and its `.complete` marker, @actions/tool-cache's layout).

/** What a step runs in. */
export interface JobFolders {
  /** The copy of the repository: github.workspace, GITHUB_WORKSPACE and every step's working folder. */
  workspace: string;
  home: string;
  /** RUNNER_TEMP: the scripts (holding the step's values, secrets among them) and the runner's files for each step. */
  temp: string;
  /** RUNNER_TOOL_CACHE: the host's (cwp's own, or one a team keeps), kept between jobs and rehearsals. */
  toolCache: string;
}

export interface RunnerFolders extends JobFolders {
  /** Whether the workspace holds the clone's files (false: the workflow is in no git clone, the workspace is empty). */
  copied?: boolean;
  /** The user's clone, which each job's workspace is copied from (never written). */
  clone: string;
  /** The job's copies of other repositories' actions (`_actions`), made anew for each job. */
  actions: string;
}

/** The folders under `folder` for the repository `owner/name`, each job's workspace to be a copy of the git clone at `clone`. */
export async function prepareRunnerFolders(
  clone: string,
  folder: string,
  repository: string,
  /** RUNNER_TOOL_CACHE: a folder that outlives the rehearsal, as a runner image's tool cache. */
  toolCache: string,
): Promise<RunnerFolders> {
  // A repository's name is letters, digits, '.', '-' and '_' (never '..'): a path segment of its own.
  const name = repository.split("/").at(-1) ?? "";
  const work = join(folder, "work");
  const folders: RunnerFolders = {
    workspace: join(work, /^[\w.-]+$/.test(name) && !/^\.+$/.test(name) ? join(name, name) : "workspace"),
    home: join(folder, "home"),
    temp: join(work, "_temp"),
    toolCache,
    actions: join(work, "_actions"),
    clone,
  };
  await mkdir(folders.toolCache, { recursive: true });
  return { ...folders, copied: isClone(clone) };
}

/**
 * A job run's folders as a new runner has them: the workspace made again from the clone's files,
 * HOME and RUNNER_TEMP empty, at the same paths as every other job's.
 */
export async function freshJobFolders(folders: RunnerFolders): Promise<void> {
  for (const path of [folders.workspace, folders.home, folders.temp, folders.actions])
    await rm(path, { recursive: true, force: true });
  await mkdir(folders.workspace, { recursive: true });
  if (folders.copied) await copyRepository(folders.clone, folders.workspace);
  await mkdir(folders.home, { recursive: true });
  await mkdir(folders.temp, { recursive: true });
  // Only the rehearsal's user may read RUNNER_TEMP, where scripts hold secrets until removed.
  await chmod(folders.temp, 0o700);
}

/** Whether `folder` is in a git clone (else the workspace stays empty). */
function isClone(folder: string): boolean {
  try {
    execFileSync("git", ["rev-parse", "--git-dir"], { cwd: folder, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The clone's tracked files and untracked ones git does not ignore, into `to` (a submodule's folder
 * is left out), links into the clone made to point into the copy.
 */
async function copyRepository(clone: string, to: string): Promise<void> {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: clone,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "ignore"],
  });
  for (const path of new Set(listed.split("\0").filter(Boolean))) {
    const from = join(clone, path);
    const target = join(to, path);
    const stat = await lstat(from).catch(() => undefined);
    // Deleted but still tracked, or a submodule (a folder): nothing to copy.
    if (!stat || stat.isDirectory()) continue;
    await mkdir(dirname(target), { recursive: true });
    if (stat.isSymbolicLink()) {
      // A link into the clone points into the job's copy; any other stays as it was written.
      const link = await readlink(from);
      const inside = isAbsolute(link) && !relative(clone, link).startsWith("..");
      await symlink(inside ? resolve(to, relative(clone, link)) : link, target);
    } else await copyFile(from, target);
  }
}

/** Removes RUNNER_TEMP (the scripts and the files steps wrote for the runner), whatever way the rehearsal ends. */
export const removeRunnerTemp = (folders: JobFolders) => rm(folders.temp, { recursive: true, force: true });
