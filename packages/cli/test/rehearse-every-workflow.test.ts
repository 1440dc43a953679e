import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { job, run, userMachine } from "./rehearse-machine.js";
import { runCli } from "./run-cli.js";

// `cwp rehearse` with no workflow file: "what will GitHub say about this push?" for the whole
// clone. Every workflow of .github/workflows the event starts is rehearsed (on: with its branches,
// tags and paths filters against the commit's changed files), each one the event does not start is
// named with why, a file GitHub refuses is a failing check, and one line closes for the event.

const passing = job(run("echo fine"));
const FILES = {
  ".github/workflows/fail.yml": job(run("echo failing; exit 3")),
  // The clone's one commit changes README.md, .gitignore and the workflows: no docs/ file.
  ".github/workflows/docs.yml":
    "on:\n  push:\n    paths: ['docs/**']\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo docs\n",
  ".github/workflows/release.yml":
    "on:\n  push:\n    tags: ['v*']\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo release\n",
  ".github/workflows/review.yml":
    "on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo review\n",
  // A step with both uses and run: GitHub refuses the file, and the push shows a failed run.
  ".github/workflows/broken.yaml":
    "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        run: echo both\n",
  // Not workflows to GitHub: another extension, a subfolder.
  ".github/workflows/notes.txt": "on: push\n",
  ".github/workflows/old/w.yml":
    "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: exit 1\n",
};

const rehearseAll = (clone: string, home: string, args: string[] = []) =>
  runCli(["rehearse", "--run-shell", ...args], { cwd: clone, env: { NO_COLOR: "1", HOME: home } });

describe("cwp rehearse with no workflow file", () => {
  it("rehearses every workflow the push starts, names the others with why, and closes with the push's checks", async () => {
    const machine = await userMachine(passing, FILES);
    const result = await rehearseAll(machine.clone, machine.home);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const lines = result.stdout.split("\n");
    expect(lines).toContain(
      "Rehearsing every workflow of local/rehearsal that this push of refs/heads/main at " +
        `${result.stdout.match(/at ([0-9a-f]{12}) starts/)?.[1]} starts: 3 of 6`,
    );
    expect(lines).toEqual(
      expect.arrayContaining([
        "  .github/workflows/docs.yml: not started (on.push.paths matches none of the files the push changed)",
        "  .github/workflows/release.yml: not started (on.push filters tags only, and this is a branch)",
        "  .github/workflows/review.yml: not started (its on: does not name push)",
        "  .github/workflows/broken.yaml: GitHub would refuse this workflow file, a failing check:",
      ]),
    );
    // Each started workflow rehearsed as with its file named: its heading and its own verdict.
    expect(result.stdout).toMatch(/^Rehearsing \.github\/workflows\/fail\.yml /m);
    expect(result.stdout).toMatch(/^Rehearsing \.github\/workflows\/w\.yml /m);
    expect(result.stdout).toContain("    │ failing");
    expect(result.stdout).toContain("    │ fine");
    expect(result.stdout).not.toContain("echo docs");
    expect(lines.filter((l) => l.trim()).at(-1)).toBe(
      "Some checks would fail: 2 failing (.github/workflows/broken.yaml (invalid workflow file), .github/workflows/fail.yml / a), 1 successful (3 workflow(s) started, 3 not started).",
    );
  });

  it("--json: every workflow's verdicts in one document, in the folder's order; exit 0 when every check would pass", async () => {
    const { [".github/workflows/fail.yml"]: _, [".github/workflows/broken.yaml"]: __, ...others } = FILES;
    const machine = await userMachine(passing, others);
    const result = await rehearseAll(machine.clone, machine.home, ["--json"]);
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as {
      event: string;
      verdict: string;
      exitCode: number;
      workflows: {
        file: string;
        started: boolean;
        why: string | null;
        rehearsal: { verdict: string } | null;
      }[];
    };
    expect(document).toMatchObject({ event: "push", verdict: "pass", exitCode: 0 });
    expect(document.workflows.map((w) => [w.file, w.started, w.rehearsal?.verdict ?? w.why])).toEqual([
      [".github/workflows/docs.yml", false, "on.push.paths matches none of the files the push changed"],
      [".github/workflows/release.yml", false, "on.push filters tags only, and this is a branch"],
      [".github/workflows/review.yml", false, "its on: does not name push"],
      [".github/workflows/w.yml", true, "pass"],
    ]);
    expect(result.stderr).toContain(
      "All checks would pass: 1 successful (1 workflow(s) started, 3 not started).",
    );
    // A tag's push starts the release workflow and not the others (w.yml names no filter: it runs).
    const tagged = await rehearseAll(machine.clone, machine.home, ["--ref", "refs/tags/v1.0.0"]);
    expect(tagged.code, tagged.stdout).toBe(0);
    expect(tagged.stdout).toContain("    │ release");
    expect(tagged.stdout).toContain("starts: 2 of 4");
  });

  it("reads paths filters against the files GitHub compares: what the push sends, a new branch from where it left, a pull request against its base", async () => {
    const paths = (on: string, folder: string) =>
      `on:\n  ${on}:\n    paths: ['${folder}/**']\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${folder} changed\n`;
    const machine = await userMachine(passing, {
      ".github/workflows/docs.yml": paths("push", "docs"),
      ".github/workflows/src.yml": paths("push", "src"),
      ".github/workflows/pr-docs.yml": paths("pull_request", "docs"),
    });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=dev@example.com", "-c", "user.name=dev", ...args], {
        cwd: machine.clone,
        env: { ...process.env, HOME: machine.home },
      });
    const commit = async (path: string) => {
      await mkdir(dirname(join(machine.clone, path)), { recursive: true });
      await writeFile(join(machine.clone, path), `${path}\n`);
      git("add", path);
      git("commit", "-q", "-m", path);
    };
    // The remote has the first commit; two more on main are not pushed yet: docs/, then src/.
    const remote = join(dirname(machine.clone), "remote.git");
    execFileSync("git", ["init", "-q", "--bare", remote]);
    git("remote", "add", "origin", remote);
    git("push", "-q", "origin", "main");
    await commit("docs/guide.md");
    await commit("src/app.ts");
    const started = (stdout: string) =>
      ["docs", "src", "pr-docs"].filter((name) =>
        stdout.includes(`Rehearsing .github/workflows/${name}.yml `),
      );
    // The push sends both commits: both filters match, though the last commit touched src/ alone.
    const push = await rehearseAll(machine.clone, machine.home);
    expect(push.code, push.stdout).toBe(0);
    expect(started(push.stdout)).toEqual(["docs", "src"]);
    // A new branch, one commit on main's: from where it left, only its own src/ change.
    git("checkout", "-q", "-b", "feature");
    git("push", "-q", "origin", "main");
    await commit("src/feature.ts");
    const branch = await rehearseAll(machine.clone, machine.home);
    expect(started(branch.stdout)).toEqual(["src"]);
    expect(branch.stdout).toContain(
      ".github/workflows/docs.yml: not started (on.push.paths matches none of the files the push changed)",
    );
    // Its pull request into main: the three-dot diff against main, src/feature.ts alone.
    const pr = await rehearseAll(machine.clone, machine.home, ["--event", "pull_request"]);
    expect(pr.stdout).toContain(
      ".github/workflows/pr-docs.yml: not started (on.pull_request.paths matches none of the files the pull_request changed)",
    );
  });

  it("refuses --job without a workflow file, and a clone without workflows, as bad input", async () => {
    const machine = await userMachine(passing);
    const withJob = await rehearseAll(machine.clone, machine.home, ["--job", "a"]);
    expect(withJob.code).toBe(2);
    expect(withJob.stderr).toContain("--job names a job of one workflow: give the workflow's file too");
    const elsewhere = await rehearseAll(machine.home, machine.home);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toMatch(/\.github\/workflows: cannot be read \(ENOENT\)/);
  });
});
