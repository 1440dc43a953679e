import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ActionRepository } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { job, printed, rehearse, run, useActionRepositories, userMachine } from "./rehearse-machine.js";

// Caches between a rehearsal's jobs and from one rehearsal to the next, through the cache service
// (v2, ACTIONS_CACHE_SERVICE_V2) `cwp rehearse --run-shell` serves, with GitHub's own
// @actions/cache (the library under actions/cache and the setup-* actions' caching) as the client.
// The actions here are written as actions/cache/restore's and actions/cache/save's cores are:
// restore by key and restore-keys, saying cache-hit and the key matched; save paths under a key.

const CACHE_LIBRARY = import.meta.resolve("@actions/cache");
const ACTIONS = "7777777777777777777777777777777777777777";

const restore = `import { appendFileSync } from "node:fs";
const cache = await import(${JSON.stringify(CACHE_LIBRARY)});
const key = process.env.INPUT_KEY;
const restoreKeys = (process.env["INPUT_RESTORE-KEYS"] || "").split("\\n").filter(Boolean);
const matched = await cache.restoreCache(["cached"], key, restoreKeys);
console.log("restore " + key + ": " + (matched ?? "miss"));
appendFileSync(process.env.GITHUB_OUTPUT, "cache-hit=" + (matched === key) + "\\n");
`;
const save = `const cache = await import(${JSON.stringify(CACHE_LIBRARY)});
const id = await cache.saveCache(["cached"], process.env.INPUT_KEY);
console.log("save " + process.env.INPUT_KEY + ": " + (id > 0 ? "saved" : "not saved"));
`;

/** restore and save of a folder under HOME by its absolute path, as setup-node's `cache: npm` names ~/.npm. */
const underHome = (script: string) =>
  `import { homedir } from "node:os";\n${script.replaceAll('["cached"]', '[homedir() + "/.deps"]')}`;

/** The same, as a library version that knows only the v1 REST form (ACTIONS_CACHE_URL) meets the service. */
const onlyV1 = (script: string) => `delete process.env.ACTIONS_CACHE_SERVICE_V2;\n${script}`;

const REPOSITORIES: ActionRepository[] = [
  {
    name: "octo/cache",
    commits: {
      [ACTIONS]: {
        "restore/action.yml":
          "inputs:\n  key: {}\n  restore-keys: {}\noutputs:\n  cache-hit:\n    description: the key matched\nruns:\n  using: node24\n  main: main.mjs\n",
        "restore/main.mjs": restore,
        "save/action.yml": "inputs:\n  key: {}\nruns:\n  using: node24\n  main: main.mjs\n",
        "save/main.mjs": save,
        "restore-home/action.yml":
          "inputs:\n  key: {}\noutputs:\n  cache-hit:\n    description: the key matched\nruns:\n  using: node24\n  main: main.mjs\n",
        "restore-home/main.mjs": underHome(restore),
        "save-home/action.yml": "inputs:\n  key: {}\nruns:\n  using: node24\n  main: main.mjs\n",
        "save-home/main.mjs": underHome(save),
        "restore-v1/action.yml":
          "inputs:\n  key: {}\n  restore-keys: {}\nruns:\n  using: node24\n  main: main.mjs\n",
        "restore-v1/main.mjs": onlyV1(restore),
        "save-v1/action.yml": "inputs:\n  key: {}\nruns:\n  using: node24\n  main: main.mjs\n",
        "save-v1/main.mjs": onlyV1(save),
      },
    },
    tags: { v1: ACTIONS },
  },
];

const saveStep = (action: string, key: string) =>
  `      - uses: octo/cache/${action}@v1\n        with:\n          key: ${key}\n`;

const actions = useActionRepositories("ghs_caches_workflow_token", REPOSITORIES);

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

  it("answers the v1 REST form too, for a library that knows only it: a save in one job, restored in the next", async () => {
    const machine = await userMachine(`on: push
jobs:
  first:
    runs-on: ubuntu-latest
    steps:
      - run: mkdir -p cached && echo "saved through v1" > cached/deps.txt
      - uses: octo/cache/save-v1@v1
        with:
          key: v1-deps-1
  second:
    needs: first
    runs-on: ubuntu-latest
    steps:
      - uses: octo/cache/restore-v1@v1
        with:
          key: v1-deps-2
          restore-keys: v1-deps-
      - run: cat cached/deps.txt
`);
    const result = await rehearse(machine, ["--no-cache"], actions.env());
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(printed(result.stdout)).toEqual(
      expect.arrayContaining(["save v1-deps-1: saved", "restore v1-deps-2: v1-deps-1", "saved through v1"]),
    );
  });

  it("a branch's run restores what the default branch saved, and the default branch never sees what a branch saved", async () => {
    const steps = (...lines: string[]) =>
      `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n${lines.join("")}`;
    const save = (key: string) =>
      `      - run: mkdir -p cached && echo "${key}" > cached/deps.txt\n      - uses: octo/cache/save@v1\n        with:\n          key: ${key}\n`;
    const restore = (key: string) =>
      `      - uses: octo/cache/restore@v1\n        with:\n          key: ${key}\n`;
    const onMain = await userMachine(steps(save("scoped-main")));
    expect((await rehearse(onMain, [], actions.env())).code).toBe(0);
    // A run of another branch: the default branch's entries, and its own.
    const onFeature = await userMachine(steps(restore("scoped-main"), save("scoped-feature")));
    const feature = await rehearse(onFeature, ["--ref", "refs/heads/feature"], actions.env());
    expect(printed(feature.stdout)).toEqual(
      expect.arrayContaining(["restore scoped-main: scoped-main", "save scoped-feature: saved"]),
    );
    const back = await rehearse(await userMachine(steps(restore("scoped-feature"))), [], actions.env());
    expect(printed(back.stdout)).toContain("restore scoped-feature: miss");
  });

  it("refuses a key over 512 characters or with a comma, as the library refuses it", async () => {
    const job = (name: string, key: string) =>
      `  ${name}:\n    runs-on: ubuntu-latest\n    steps:\n      - run: mkdir -p cached && touch cached/x\n      - uses: octo/cache/save@v1\n        with:\n          key: "${key}"\n`;
    const machine = await userMachine(
      `on: push\njobs:\n${job("comma", "a,b")}${job("long", "k".repeat(513))}`,
    );
    const result = await rehearse(machine, [], actions.env());
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("Key Validation Error: a,b cannot contain commas.");
    expect(result.stdout).toMatch(/Key Validation Error: k{513} cannot be larger than 512 characters\./);
  });
});
