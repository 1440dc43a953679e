import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { type ActionRepository, type StandIn, startGitHubStandIn } from "@cwp/action-testing";
import { afterAll, beforeAll } from "vitest";
import { runCli } from "./run-cli.js";

// What the tests of `cwp rehearse --run-shell` share (rehearse-safety, rehearse-runner): a user's
// machine (a clone holding the workflow, a home with credentials), the rehearsal run from the
// clone, and workflows written a job and a step at a time.

/**
 * A user's clone (a file committed, one not yet, one ignored) holding `workflow` and `files` (path:
 * text, committed), and a home with credentials.
 */
export async function userMachine(workflow: string, files: Record<string, string> = {}) {
  const root = await mkdtemp(join(tmpdir(), "cwp-user-"));
  const clone = join(root, "clone");
  const home = join(root, "home");
  await mkdir(join(clone, ".github/workflows"), { recursive: true });
  await mkdir(home);
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: clone, env: { ...process.env, HOME: home } });
  git("init", "-q", "-b", "main");
  await writeFile(join(clone, "README.md"), "committed\n");
  await writeFile(join(clone, ".gitignore"), "ignored.txt\n");
  await writeFile(join(clone, ".github/workflows/w.yml"), workflow);
  // More of the repository: local actions, scripts.
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(clone, path)), { recursive: true });
    await writeFile(join(clone, path), text);
  }
  git("add", ".");
  git("-c", "user.email=dev@example.com", "-c", "user.name=dev", "commit", "-q", "-m", "first");
  await writeFile(join(clone, "notes.txt"), "not yet committed\n");
  await writeFile(join(clone, "ignored.txt"), "ignored\n");
  await writeFile(join(home, ".gitconfig"), "[user]\n\tname = The Developer\n");
  await writeFile(join(home, ".npmrc"), "//registry.npmjs.org/:_authToken=the-developers-own\n");
  return { clone, home, workflowFile: join(clone, ".github/workflows/w.yml") };
}

/**
 * Programs (name: shell script) in a folder of the user's machine, outside the clone, first on
 * PATH: the environment to rehearse with. A stand-in shows what reaches a program.
 */
export async function onPath(machine: { clone: string }, programs: Record<string, string>) {
  const bin = join(dirname(machine.clone), "bin");
  await mkdir(bin, { recursive: true });
  for (const [name, script] of Object.entries(programs)) {
    await writeFile(join(bin, name), script);
    await chmod(join(bin, name), 0o755);
  }
  return { PATH: `${bin}${delimiter}${process.env.PATH}` };
}

export const rehearse = (
  machine: { clone: string; home: string; workflowFile: string },
  args: string[] = [],
  env = {},
) =>
  runCli(["rehearse", machine.workflowFile, "--run-shell", ...args], {
    cwd: machine.clone,
    env: { NO_COLOR: "1", HOME: machine.home, ...env },
  });

export const job = (steps: string, jobExtra = "") =>
  `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n${jobExtra}    steps:\n${steps}`;
export const run = (script: string, extra = "") =>
  `      - run: |\n${script
    .split("\n")
    .map((line) => `          ${line}`)
    .join("\n")}\n${extra}`;

/** The lines the steps printed (`│ ...`). */
export const printed = (stdout: string) =>
  stdout
    .split("\n")
    .filter((line) => line.startsWith("    │ "))
    .map((line) => line.slice("    │ ".length));

/**
 * GitHub's stand-in for a test file (one a file), serving the repositories of the actions its
 * workflows use, and the user's cache folder (XDG_CACHE_HOME) where a rehearsal keeps what it
 * downloads: started before the file's tests, closed after them. `env()` hands both to a rehearsal.
 */
export function useActionRepositories(token: string, repositories: ActionRepository[]) {
  let github: StandIn | undefined;
  let cache = "";
  beforeAll(async () => {
    github = await startGitHubStandIn(token, { actionRepositories: repositories });
    cache = await mkdtemp(join(tmpdir(), "cwp-cache-"));
  });
  afterAll(() => github?.close());
  const standIn = () => {
    if (!github) throw new Error("GitHub's stand-in starts in beforeAll: use it inside tests");
    return github;
  };
  return {
    github: standIn,
    cache: () => cache,
    env: () => ({ GITHUB_API_URL: standIn().url, XDG_CACHE_HOME: cache }),
  };
}
