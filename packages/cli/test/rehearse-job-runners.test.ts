import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { printed, rehearse, userMachine } from "./rehearse-machine.js";

// Each job run on a runner of its own, as on GitHub, where every job (every matrix leg) gets a
// fresh machine: its own workspace, HOME and RUNNER_TEMP, at the same paths in every job
// ("Choosing the runner for a job": each job runs in a fresh instance of the runner image;
// "Variables reference": GITHUB_WORKSPACE, HOME, RUNNER_TEMP). Nothing one job leaves reaches
// another but what GitHub passes (needs.<job>.outputs).

/** A step that says where it runs and what an earlier job may have left, then leaves its own. */
const LOOK_AND_LEAVE = `      - uses: actions/checkout@v4
      - run: |
          echo "where $GITHUB_WORKSPACE $HOME $RUNNER_TEMP"
          echo "script in $(dirname "$0")"
          for left in dist/app.js "$HOME/left" "$RUNNER_TEMP/left"; do
            if [ -e "$left" ]; then echo "found $left"; fi
          done
          mkdir -p dist && echo built > dist/app.js
          echo left > "$HOME/left" && echo left > "$RUNNER_TEMP/left"
`;

describe("a runner of its own for each job run", () => {
  it("checks the repository out in every job, at the same paths, with nothing an earlier job left; a job reading what only an earlier one made fails, as on GitHub", async () => {
    const workflow = `on: push
jobs:
  build:
    strategy:
      matrix:
        leg: [one, two]
    runs-on: ubuntu-latest
    outputs:
      made: \${{ steps.made.outputs.file }}
    steps:
${LOOK_AND_LEAVE}      - id: made
        run: echo "file=dist/app.js" >> "$GITHUB_OUTPUT"
  deploy:
    needs: build
    runs-on: ubuntu-latest
    steps:
${LOOK_AND_LEAVE.split("\n").slice(0, 4).join("\n")}
          echo "told \${{ needs.build.outputs.made }}"
      - run: cat dist/app.js
`;
    const machine = await userMachine(workflow);
    execFileSync("git", ["-C", machine.clone, "remote", "add", "origin", "git@github.com:acme/shop.git"]);
    const result = await rehearse(machine);
    const lines = printed(result.stdout);
    // Three job runs, each in the same folders, each a hosted runner's layout: work/<repo>/<repo>.
    const where = lines.filter((line) => line.startsWith("where "));
    expect(where, result.stdout).toHaveLength(3);
    expect(new Set(where).size).toBe(1);
    const [workspace, home, temp] = (where[0] as string).split(" ").slice(1) as [string, string, string];
    expect(workspace).toMatch(/\/work\/shop\/shop$/);
    // The script is written to RUNNER_TEMP, as the runner writes it (ScriptHandler.cs line 230).
    expect(lines.filter((line) => line === `script in ${temp}`)).toHaveLength(3);
    // No job found what another left: in the workspace, HOME or RUNNER_TEMP.
    expect(lines.filter((line) => line.startsWith("found "))).toEqual([]);
    // Each job checked the repository out: the second and third checkouts pass like the first.
    expect(result.stdout).not.toContain("remote origin already exists");
    expect(result.stdout).toContain("✔ job build (one) would pass");
    expect(result.stdout).toContain("✔ job build (two) would pass");
    // What GitHub passes does pass: a job's outputs.
    expect(lines).toContain("told dist/app.js");
    // The deploy job reads dist/, which only the build job made, without an artifact: it fails.
    expect(lines).toContain(`cat: dist/app.js: No such file or directory`);
    expect(result.stdout).toContain('✘ job deploy would fail: "Run cat dist/app.js" failed');
    expect(result.code).toBe(1);
    // The user's home and clone were never the steps': the runner's HOME is in cwp's own folder.
    expect(home.startsWith(join(machine.home, ".cache/cwp/runners/"))).toBe(true);
    expect(workspace.startsWith(machine.clone)).toBe(false);
  });

  it("runs scripts in UTC, a hosted runner's time zone, whatever this machine's; a workflow's env: TZ chooses another", async () => {
    const machine = await userMachine(
      `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "zone $(date +%Z)"\n      - run: echo "zone $(date +%Z)"\n        env:\n          TZ: Asia/Tokyo\n`,
    );
    // The machine's zone is UTC+14, where the day begins first.
    const result = await rehearse(machine, [], { TZ: "Pacific/Kiritimati" });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(printed(result.stdout)).toEqual(["zone UTC", "zone JST"]);
  });
});
