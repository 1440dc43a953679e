import { fileURLToPath } from "node:url";
import type { ActionRepository } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { printed, rehearse, useActionRepositories, userMachine } from "./rehearse-machine.js";

// Artifacts between a rehearsal's jobs, through the Results service `cwp rehearse --run-shell`
// serves, with GitHub's own @actions/artifact (the library under upload-artifact and
// download-artifact) as the client: what it sends (twirp CreateArtifact, blob blocks, Finalize,
// ListArtifacts, GetSignedArtifactURL) is the protocol. The actions here are written as
// upload-artifact's and download-artifact's cores are: upload a path from the workspace by name;
// find a name in the run and download it into the workspace.

const ARTIFACT_LIBRARY = import.meta.resolve("@actions/artifact");
/** @actions/artifact 2.x, as download-artifact@v4 bundles it (CommonJS). */
const ARTIFACT_LIBRARY_2 = fileURLToPath(import.meta.resolve("artifact-v2"));
const ACTIONS = "6666666666666666666666666666666666666666";

// The files under the path, from the folder that holds them, as upload-artifact roots them at the
// least common ancestor of what its search found.
const upload = `import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
const { DefaultArtifactClient } = await import(${JSON.stringify(ARTIFACT_LIBRARY)});
const path = join(process.env.GITHUB_WORKSPACE, process.env.INPUT_PATH);
const folder = statSync(path).isDirectory();
const files = folder ? readdirSync(path, { recursive: true }).map((f) => join(path, f)) : [path];
const name = process.env.INPUT_NAME;
const { size } = await new DefaultArtifactClient().uploadArtifact(name, files, folder ? path : dirname(path));
console.log("uploaded " + name + " (" + size + " bytes)");
`;
const download = `const { DefaultArtifactClient } = await import(${JSON.stringify(ARTIFACT_LIBRARY)});
const client = new DefaultArtifactClient();
const { artifact } = await client.getArtifact(process.env.INPUT_NAME);
await client.downloadArtifact(artifact.id, { path: process.env.GITHUB_WORKSPACE });
console.log("downloaded " + artifact.name);
`;

const downloadWith2 = `const { createRequire } = require("node:module");
const { DefaultArtifactClient } = createRequire(__filename)(${JSON.stringify(ARTIFACT_LIBRARY_2)});
(async () => {
  const client = new DefaultArtifactClient();
  const { artifact } = await client.getArtifact(process.env.INPUT_NAME);
  await client.downloadArtifact(artifact.id, { path: process.env.GITHUB_WORKSPACE });
  console.log("downloaded " + artifact.name + " with @actions/artifact 2");
})().catch((error) => { console.error(error.message); process.exit(1); });
`;

const remove = `const { DefaultArtifactClient } = await import(${JSON.stringify(ARTIFACT_LIBRARY)});
await new DefaultArtifactClient().deleteArtifact(process.env.INPUT_NAME);
console.log("deleted " + process.env.INPUT_NAME);
`;

const REPOSITORIES: ActionRepository[] = [
  {
    name: "octo/artifacts",
    commits: {
      [ACTIONS]: {
        "upload/action.yml": "inputs:\n  name: {}\n  path: {}\nruns:\n  using: node24\n  main: main.mjs\n",
        "upload/main.mjs": upload,
        "download/action.yml": "inputs:\n  name: {}\nruns:\n  using: node24\n  main: main.mjs\n",
        "download/main.mjs": download,
        "delete/action.yml": "inputs:\n  name: {}\nruns:\n  using: node24\n  main: main.mjs\n",
        "delete/main.mjs": remove,
        "download-v2/action.yml": "inputs:\n  name: {}\nruns:\n  using: node20\n  main: main.js\n",
        "download-v2/main.js": downloadWith2,
      },
    },
    tags: { v1: ACTIONS },
  },
];

const actions = useActionRepositories("ghs_artifacts_workflow_token", REPOSITORIES);

const env = () => actions.env();

describe("artifacts between jobs", () => {
  it("a build job's artifact reaches the jobs that deploy it, same bytes, across the library's versions, and the rehearsal lists it", async () => {
    const machine = await userMachine(`on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: mkdir -p dist && printf 'built once\\n' > dist/app.js
      - uses: octo/artifacts/upload@v1
        with:
          name: dist
          path: dist
  deploy:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - uses: octo/artifacts/download@v1
        with:
          name: dist
      - run: cat app.js
  deploy-elsewhere:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - uses: octo/artifacts/download-v2@v1
        with:
          name: dist
      - run: cat app.js
`);
    const result = await rehearse(machine, [], env());
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const lines = printed(result.stdout);
    expect(lines).toContain("downloaded dist");
    expect(lines).toContain("built once");
    // Uploaded with the newest library, downloaded with 2.x, as download-artifact@v4 has it.
    expect(lines).toContain("downloaded dist with @actions/artifact 2");
    expect(lines.filter((line) => line === "built once")).toHaveLength(2);
    expect(result.stdout).toMatch(/^artifact dist: \d+ bytes, made by job build \(kept in \S+\)$/m);
    expect(result.stdout).toContain("✔ job deploy would pass");
    // The runtime token is a secret: never printed.
    expect(result.stdout + result.stderr).not.toMatch(/eyJ[\w-]+\.eyJ/);
  });

  it("fails a download of a name nobody uploaded or deleted, an upload of a name the run has and one of a name GitHub does not allow, as GitHub does", async () => {
    const machine = await userMachine(`on: push
jobs:
  twice:
    runs-on: ubuntu-latest
    steps:
      - run: echo one > one.txt
      - uses: octo/artifacts/upload@v1
        with:
          name: report
          path: one.txt
      - uses: octo/artifacts/upload@v1
        with:
          name: report
          path: one.txt
  missing:
    runs-on: ubuntu-latest
    steps:
      - uses: octo/artifacts/download@v1
        with:
          name: never-made
  deleted:
    runs-on: ubuntu-latest
    steps:
      - run: echo one > one.txt
      - uses: octo/artifacts/upload@v1
        with:
          name: scratch
          path: one.txt
      - uses: octo/artifacts/delete@v1
        with:
          name: scratch
      - uses: octo/artifacts/download@v1
        with:
          name: scratch
  bad-name:
    runs-on: ubuntu-latest
    steps:
      - run: echo one > one.txt
      - uses: octo/artifacts/upload@v1
        with:
          name: reports/weekly
          path: one.txt
`);
    const result = await rehearse(machine, [], env());
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/already exists on the workflow run/);
    expect(result.stdout).toMatch(/Artifact not found for name: never-made/);
    expect(result.stdout).toContain("✘ job twice would fail");
    expect(result.stdout).toContain("✘ job missing would fail");
    expect(result.stdout).toMatch(
      /The artifact name is not valid: reports\/weekly\. Contains the following character: {2}Forward slash \//,
    );
    expect(result.stdout).toContain("✘ job bad-name would fail");
    // Deleted, it is gone from the run.
    expect(result.stdout).toContain("deleted scratch");
    expect(result.stdout).toMatch(/Artifact not found for name: scratch/);
  });
});
