import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CACHE_ACTIONS, saveStep } from "./cache-actions.js";
import { job, printed, rehearse, run, useActionRepositories, userMachine } from "./rehearse-machine.js";

// Caches between a rehearsal's jobs and from one rehearsal to the next, through the cache service
// (v2, ACTIONS_CACHE_SERVICE_V2) `cwp rehearse --run-shell` serves, with GitHub's own
// @actions/cache (the library under actions/cache and the setup-* actions' caching) as the client.
// The actions: cache-actions.ts. A branch's scope, the v1 form and refused keys:
// rehearse-cache-scopes.test.ts.

const actions = useActionRepositories("ghs_caches_workflow_token", CACHE_ACTIONS);

const WORKFLOW = `on: push
jobs:
  first:
    runs-on: ubuntu-latest
    steps:
      - run: mkdir -p cached && echo "made by the first job" > cached/deps.txt
      - uses: octo/cache/save@v1
        with:
          key: deps-1
  second:
    needs: first
    runs-on: ubuntu-latest
    steps:
      - id: restore
        uses: octo/cache/restore@v1
        with:
          key: deps-2
          restore-keys: deps-
      - run: cat cached/deps.txt
      - if: steps.restore.outputs.cache-hit != 'true'
        run: echo "no exact hit"
      - uses: octo/cache/save@v1
        with:
          key: deps-1
`;

describe("caches", () => {
  it("a cache saved by one job is restored by the next through a restore key, and by the next rehearsal exactly; an existing key is kept", async () => {
    const machine = await userMachine(WORKFLOW);
    const env = actions.env();
    const first = await rehearse(machine, [], env);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const lines = printed(first.stdout);
    expect(lines).toContain("save deps-1: saved");
    expect(lines).toContain("restore deps-2: deps-1");
    expect(lines).toContain("made by the first job");
    expect(lines).toContain("no exact hit");
    // GitHub keeps the first entry of a key: the second save is refused, which the library says and passes.
    expect(lines).toContain("save deps-1: not saved");
    // The next rehearsal, which only restores, finds the repository's cache, as a repository's
    // caches outlive a run on GitHub; with --no-cache it starts from an empty one.
    const restoring = await userMachine(
      "on: push\njobs:\n  only:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: octo/cache/restore@v1\n        with:\n          key: deps-1\n      - run: cat cached/deps.txt\n",
    );
    const second = await rehearse(restoring, [], env);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(printed(second.stdout)).toEqual(
      expect.arrayContaining(["restore deps-1: deps-1", "made by the first job"]),
    );
    const empty = await rehearse(restoring, ["--no-cache"], env);
    expect(printed(empty.stdout)).toContain("restore deps-1: miss");
    expect(empty.code).toBe(1);
  });

  it("a folder under HOME saved by its absolute path (as setup-node saves ~/.npm) comes back in the next rehearsal: the runner folders are at the same paths in each", async () => {
    const saving = await userMachine(
      job(
        run('mkdir -p ~/.deps && echo "made in the first rehearsal" > ~/.deps/x') +
          saveStep("save-home", "home-1"),
      ),
    );
    const first = await rehearse(saving, [], actions.env());
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(printed(first.stdout)).toContain("save home-1: saved");
    expect(first.stdout).toMatch(/runners\/local\/rehearsal\/<slot>\/home, both made anew for each job/);
    const restoring = await userMachine(
      job(`      - id: restore
        uses: octo/cache/restore-home@v1
        with:
          key: home-1
${run('echo "cache-hit: $HIT"; cat ~/.deps/x', "        env:\n          HIT: ${{ steps.restore.outputs.cache-hit }}\n")}`),
    );
    const second = await rehearse(restoring, [], actions.env());
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(printed(second.stdout)).toEqual(
      expect.arrayContaining(["restore home-1: home-1", "cache-hit: true", "made in the first rehearsal"]),
    );
  });

  it("a rehearsal of the repository beside another takes a runner slot of its own, says so, and touches nothing of the other's", async () => {
    // Each job writes its name in HOME and the workspace, waits until both jobs have, then reads
    // them back: in one shared folder, the second job's start (which empties it) or its writes
    // would show in the first's.
    const meet = await mkdtemp(join(tmpdir(), "cwp-meet-"));
    const machine = await userMachine(
      job(
        run(
          `echo "$WHO" > ~/who
echo "$WHO" > who
touch "$MEET/$WHO"
for i in $(seq 600); do [ -e "$MEET/A" ] && [ -e "$MEET/B" ] && break; sleep 0.1; done
echo "home: $(cat ~/who), workspace: $(cat who)"`,
          "        env:\n          WHO: ${{ vars.WHO }}\n          MEET: ${{ vars.MEET }}\n",
        ),
      ),
    );
    const [a, b] = await Promise.all(
      ["A", "B"].map((who) =>
        rehearse(machine, ["--var", `WHO=${who}`, "--var", `MEET=${meet}`], actions.env()),
      ),
    );
    for (const [who, result] of [
      ["A", a],
      ["B", b],
    ] as const) {
      expect(result?.code, result?.stdout).toBe(0);
      expect(printed(result?.stdout ?? "")).toContain(`home: ${who}, workspace: ${who}`);
    }
    // One of the two found the other's slot held: its job says so, and which slot it took.
    const notes = [a, b].map((r) =>
      /note: another rehearsal of local\/rehearsal \(process \d+\) holds runner slot 1: this job runs in slot 2/.test(
        r?.stdout ?? "",
      ),
    );
    expect(notes.sort()).toEqual([false, true]);
  });
});
