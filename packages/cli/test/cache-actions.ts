import type { ActionRepository } from "@cwp/action-testing";

// The actions the cache tests use (rehearse-caches.test.ts, rehearse-cache-scopes.test.ts), written
// as actions/cache/restore's and actions/cache/save's cores are, on GitHub's own @actions/cache (the
// library under actions/cache and the setup-* actions' caching): restore by key and restore-keys,
// saying cache-hit and the key matched; save paths under a key.

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

/** actions/cache-shaped actions: restore and save, also under HOME and in the v1 REST form. */
export const CACHE_ACTIONS: ActionRepository[] = [
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

/** A step of a workflow that saves `cached` (or the folder of `action`) under `key`. */
export const saveStep = (action: string, key: string) =>
  `      - uses: octo/cache/${action}@v1\n        with:\n          key: ${key}\n`;
