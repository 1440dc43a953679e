import { describe, expect, it } from "vitest";
import { CACHE_ACTIONS } from "./cache-actions.js";
import { printed, rehearse, useActionRepositories, userMachine } from "./rehearse-machine.js";

// What the cache service `cwp rehearse --run-shell` serves keeps apart and refuses, as GitHub's:
// a branch's caches from the default branch's, the v1 REST form a library that knows only it
// meets, keys the library refuses (the actions: cache-actions.ts; caches between jobs and
// rehearsals: rehearse-caches.test.ts).

const actions = useActionRepositories("ghs_cache_scopes_workflow_token", CACHE_ACTIONS);

describe("caches: scopes, the v1 form, refused keys", () => {
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
