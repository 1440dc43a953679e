import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { job, printed, rehearse, userMachine } from "./rehearse-machine.js";
import { runCli } from "./run-cli.js";

// actions/checkout of the repository being rehearsed is rehearsed as done: under --run-shell the
// workspace is then what checkout makes on GitHub, a git repository at the commit with the history
// and tags its inputs ask for (actions/checkout @011c9c50 src/input-helper.ts, getInputs: fetch-depth
// 1 by default, 0 or below or not a number for all history and tags; @0ff8af69 src/ref-helper.ts:
// a branch is checked out as itself, at refs/remotes/origin/<branch>). Any other checkout is listed
// as not rehearsed, saying why.

const git = (clone: string, ...args: string[]) =>
  execFileSync("git", ["-C", clone, ...args], { encoding: "utf8" }).trim();

/** A clone of acme/shop with three commits on main, the first tagged v1.0.0. */
async function historyMachine(workflow: string) {
  const machine = await userMachine(workflow);
  const commit = async (file: string) => {
    await writeFile(join(machine.clone, file), `${file}\n`);
    git(machine.clone, "add", file);
    git(machine.clone, "-c", "user.email=dev@example.com", "-c", "user.name=dev", "commit", "-q", "-m", file);
  };
  git(machine.clone, "remote", "add", "origin", "git@github.com:acme/shop.git");
  git(machine.clone, "tag", "v1.0.0");
  await commit("second.txt");
  await commit("third.txt");
  return { ...machine, head: git(machine.clone, "rev-parse", "HEAD") };
}

/** A step that prints what git says of the workspace. */
const GIT_FACTS =
  '      - run: |\n          echo "head $(git rev-parse HEAD)"\n          echo "commits $(git rev-list --count HEAD)"\n          echo "describe $(git describe --tags --always)"\n          echo "branch $(git branch --show-current)"\n          echo "origin $(git remote get-url origin)"\n          git status --porcelain | sed "s/^/status /"\n';

describe("actions/checkout of the repository being rehearsed", () => {
  it("makes the workspace a clone at the commit, one commit deep by default, on its branch", async () => {
    const machine = await historyMachine(
      job(
        `      - id: co\n        uses: actions/checkout@v4\n${GIT_FACTS}      - run: echo "outputs \${{ steps.co.outputs.commit }} \${{ steps.co.outputs.ref }}"\n`,
      ),
    );
    const refsBefore = git(machine.clone, "for-each-ref");
    const result = await rehearse(machine);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const lines = printed(result.stdout);
    expect(lines).toContain(`head ${machine.head}`);
    expect(lines).toContain("commits 1");
    // No tag is fetched one commit deep: describe falls back to the abbreviated commit.
    expect(lines).toContain(`describe ${machine.head.slice(0, 7)}`);
    expect(lines).toContain("branch main");
    expect(lines).toContain("origin https://github.com/acme/shop");
    // What the user has not committed is there, as a change to the commit.
    expect(lines).toContain("status ?? notes.txt");
    expect(lines).toContain(`outputs ${machine.head} refs/heads/main`);
    expect(result.stdout).toContain("✔ job a would pass");
    expect(result.stdout).not.toContain("as far as rehearsed");
    // The user's clone is fetched from, never written.
    expect(git(machine.clone, "for-each-ref")).toBe(refsBefore);
  });

  it("fetches all history and tags with fetch-depth: 0, and the tags alone with fetch-tags", async () => {
    const all = await historyMachine(
      job(`      - uses: actions/checkout@v4\n        with:\n          fetch-depth: 0\n${GIT_FACTS}`),
    );
    const result = await rehearse(all);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(printed(result.stdout)).toContain("commits 3");
    expect(printed(result.stdout)).toContain(`describe v1.0.0-2-g${all.head.slice(0, 7)}`);
    // fetch-tags without fetch-depth 0: git's own tag following, the tags on what was fetched.
    const tags = await historyMachine(
      job(`      - uses: actions/checkout@v4\n        with:\n          fetch-tags: true\n${GIT_FACTS}`),
    );
    git(tags.clone, "tag", "v1.1.0");
    const tagged = await rehearse(tags);
    expect(tagged.code, tagged.stdout + tagged.stderr).toBe(0);
    expect(printed(tagged.stdout)).toContain("commits 1");
    expect(printed(tagged.stdout)).toContain("describe v1.1.0");
  });

  it("lists another repository, another ref or another path as not rehearsed, saying why", async () => {
    const machine = await userMachine(
      job(
        [
          "      - uses: actions/checkout@v4\n        with:\n          repository: acme/tools\n",
          "      - uses: actions/checkout@v4\n        with:\n          ref: release\n",
          "      - uses: actions/checkout@v4\n        with:\n          path: sub\n",
        ].join(""),
      ),
    );
    const result = await rehearse(machine);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(
      "it checks out acme/tools, another repository, which the rehearsal does not fetch",
    );
    expect(result.stdout).toMatch(
      /it checks out ref release, not the rehearsed refs\/heads\/main at [0-9a-f]{12}/,
    );
    expect(result.stdout).toContain("it checks out into path sub, not the workspace itself");
    expect(result.stdout).toContain("would pass as far as rehearsed");
  });

  it("without --run-shell, counts the checkout as done: the steps read the clone as it is", async () => {
    const machine = await userMachine(job("      - uses: actions/checkout@v4\n"));
    const result = await runCli(["rehearse", machine.workflowFile], {
      cwd: machine.clone,
      env: { NO_COLOR: "1", HOME: machine.home },
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain("rehearsed as done");
    expect(result.stdout).toContain("✔ job a would pass");
    expect(result.stdout).not.toContain("as far as rehearsed");
  });
});
