#!/usr/bin/env node
// cwp <operation> [--input value ...]: the cwp GitHub Actions' operations from a terminal or any
// CI system. `cwp --help` lists them; `cwp <operation> --help` lists its inputs.
import { existsSync, readFileSync } from "node:fs";

// The bundle needs the Node that package.json's engines names (undici 8): on an older one it dies
// loading with a stack trace that names nothing useful, so say what is needed before loading it.
// Written for any Node, since it runs before anything is known.
const needed = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).engines.node;
const [wantMajor, wantMinor] = needed
  .replace(/^>=\s*/, "")
  .split(".")
  .map(Number);
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < wantMajor || (major === wantMajor && minor < wantMinor)) {
  // In a clone of the repository, its set-up brought Node 24 (the `node` package): say how to use it.
  const inClone = existsSync(new URL("../../../pnpm-workspace.yaml", import.meta.url));
  const how = inClone
    ? "inside this clone, run it with the clone's Node 24: `pnpm exec node packages/cli/bin/cwp.js ...` (after the README's set-up)."
    : "install Node.js 24 (https://nodejs.org, or `nvm install 24`) and run cwp with it.";
  console.error(
    `cwp needs Node.js ${wantMajor}.${wantMinor} or later, and this is Node.js ${process.versions.node}: ${how}`,
  );
  process.exit(1);
}
await import("../dist/index.js");
