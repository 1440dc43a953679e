import { chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ActionRepository } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { printed, rehearse, useActionRepositories, userMachine } from "./rehearse-machine.js";

// The tool cache a rehearsal's steps find and keep tools in (RUNNER_TOOL_CACHE), as a setup-*
// action uses it through GitHub's own @actions/tool-cache: `<tool>/<version>/<arch>` with its
// `<arch>.complete` marker (tool-cache.ts, find and cacheDir). It is cwp's own folder, kept between
// rehearsals (`~/.cache/cwp/tool-cache`, XDG_CACHE_HOME), or the one `--tool-cache` names. The
// setup action here is written as setup-node's core is: find the version, else fetch and cache it,
// then put its bin/ first on PATH (GITHUB_PATH). The machine has no network: what it "fetches" is
// made here, and a version is put in the folder beforehand as a team's kept tool cache has it.

const SETUP = "5555555555555555555555555555555555555555";
const TOOL_CACHE_LIBRARY = import.meta.resolve("@actions/tool-cache");

/** A node that says which version it is, as the tool cache would hold it. */
const fakeNode = (version: string) => `#!/bin/sh\necho "v${version} from the tool cache"\n`;

const MAIN = `import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const tc = await import(${JSON.stringify(TOOL_CACHE_LIBRARY)});
const version = process.env["INPUT_NODE-VERSION"];
let found = tc.find("node", version);
console.log(found ? "found node " + version + " in the tool cache" : "node " + version + " is not in the tool cache: fetched");
if (!found) {
  // What a download would unpack (the machine has no network).
  const unpacked = mkdtempSync(join(tmpdir(), "node-"));
  mkdirSync(join(unpacked, "bin"));
  writeFileSync(join(unpacked, "bin/node"), ${JSON.stringify(fakeNode("22.1.0"))});
  chmodSync(join(unpacked, "bin/node"), 0o755);
  found = await tc.cacheDir(unpacked, "node", "22.1.0");
}
appendFileSync(process.env.GITHUB_PATH, join(found, "bin") + "\\n");
`;

const REPOSITORIES: ActionRepository[] = [
  {
    name: "octo/setup-node-like",
    commits: {
      [SETUP]: {
        "action.yml": "inputs:\n  node-version: {}\nruns:\n  using: node24\n  main: main.mjs\n",
        "main.mjs": MAIN,
      },
    },
    tags: { v1: SETUP },
  },
];

const actions = useActionRepositories("ghs_tool_cache_workflow_token", REPOSITORIES);

const workflow = (version: string) =>
  `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: octo/setup-node-like@v1\n        with:\n          node-version: ${version}\n      - run: node --version\n`;

describe("the tool cache", () => {
  it("a setup step finds a version kept there (--tool-cache) and puts it first on the next step's PATH", async () => {
    const kept = await mkdtemp(join(tmpdir(), "cwp-team-tool-cache-"));
    const arch = process.arch;
    await mkdir(join(kept, "node/20.11.1", arch, "bin"), { recursive: true });
    await writeFile(join(kept, "node/20.11.1", arch, "bin/node"), fakeNode("20.11.1"));
    await chmod(join(kept, "node/20.11.1", arch, "bin/node"), 0o755);
    await writeFile(join(kept, "node/20.11.1", `${arch}.complete`), "");
    const machine = await userMachine(workflow("20.x"));
    const result = await rehearse(machine, ["--tool-cache", kept], actions.env());
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(printed(result.stdout)).toEqual(
      expect.arrayContaining(["found node 20.x in the tool cache", "v20.11.1 from the tool cache"]),
    );
    // No "which tool a script found" note: the setup step ran.
    expect(result.stdout).not.toContain("setup asked for");
  });

  it("is cwp's own by default and outlives the rehearsal: fetched once, found the next time", async () => {
    const machine = await userMachine(workflow("22.1.0"));
    const env = actions.env();
    const first = await rehearse(machine, [], env);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(printed(first.stdout)).toContain("node 22.1.0 is not in the tool cache: fetched");
    expect(first.stdout).toContain(`the tool cache ${join(actions.cache(), "cwp/tool-cache")}`);
    const second = await rehearse(machine, [], env);
    expect(printed(second.stdout)).toEqual(
      expect.arrayContaining(["found node 22.1.0 in the tool cache", "v22.1.0 from the tool cache"]),
    );
  });
});
