// pnpm release:check: what a release of the current changesets would do, without publishing: the
// version of every package, the tarball of every public one (and that it holds dist, types,
// README, LICENSE and nothing else), the tags for the actions, and the ecosystem's own checks of
// each public package (publint, and @arethetypeswrong/cli for ESM types under node16 and bundler).
// Exits 1 when a published package would be broken. Run after `pnpm build`.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { publint } from "publint";

const run = promisify(execFile);
const root = new URL("..", import.meta.url).pathname;
const problems: string[] = [];

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  engines?: { node?: string };
  repository?: { url?: string; directory?: string };
  exports?: Record<string, unknown>;
  bin?: Record<string, string>;
  sideEffects?: boolean;
}

async function workspacePackages(): Promise<Array<{ dir: string; manifest: Manifest }>> {
  const out: Array<{ dir: string; manifest: Manifest }> = [];
  for (const group of ["packages", "actions"])
    for (const name of await readdir(join(root, group))) {
      const dir = join(root, group, name);
      const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as Manifest;
      out.push({ dir, manifest });
    }
  return out;
}

/** The versions a release of the pending changesets gives. */
async function plannedReleases(): Promise<Array<{ name: string; type: string; newVersion: string }>> {
  const dir = await mkdtemp(join(tmpdir(), "cwp-release-"));
  const file = join(dir, "status.json");
  try {
    await run("pnpm", ["exec", "changeset", "status", "--output", file], { cwd: root });
    const status = JSON.parse(await readFile(file, "utf8")) as {
      releases: Array<{ name: string; type: string; newVersion: string }>;
    };
    return status.releases.filter((r) => r.type !== "none");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The package packed as a release publishes it (pnpm, which makes `workspace:` ranges versions),
 * once: its files are listed, and publint and attw read the same tarball (they packed it again each,
 * with pnpm and npm: three packs a package, a third of this check's time).
 */
async function packed(dir: string, into: string): Promise<{ tarball: string; files: string[] }> {
  const { stdout } = await run("pnpm", ["pack", "--pack-destination", into, "--json"], { cwd: dir });
  const { filename, files } = JSON.parse(stdout) as { filename: string; files: Array<{ path: string }> };
  return { tarball: filename, files: files.map((f) => f.path) };
}

const ALLOWED = /^(dist\/|bin\/|README\.md$|LICENSE$|package\.json$)/;

async function checkPackage(dir: string, manifest: Manifest, into: string): Promise<void> {
  const name = manifest.name;
  const { tarball, files } = await packed(dir, into);
  const library = manifest.exports !== undefined;
  const dist = files.filter((f) => f.startsWith("dist/"));
  console.log(`\n${name}@${manifest.version}: the tarball holds ${files.length} files`);
  console.log(
    `  dist/: ${dist.length} files, ${dist.filter((f) => f.endsWith(".d.ts")).length} of them types`,
  );
  for (const file of files.filter((f) => !f.startsWith("dist/"))) console.log(`  ${file}`);
  for (const file of files)
    if (!ALLOWED.test(file)) problems.push(`${name}: ${file} should not be published`);
  for (const needed of ["README.md", "LICENSE", "package.json"])
    if (!files.includes(needed)) problems.push(`${name}: the tarball has no ${needed}`);
  if (!files.some((f) => f.startsWith("dist/")))
    problems.push(`${name}: the tarball has no dist/ (run pnpm build)`);
  if (library && !files.some((f) => f.endsWith(".d.ts"))) problems.push(`${name}: the tarball has no types`);
  if (manifest.license !== "MIT") problems.push(`${name}: license should be MIT`);
  if (!manifest.engines?.node) problems.push(`${name}: engines.node is missing`);
  if (!manifest.repository?.url || !manifest.repository.directory)
    problems.push(`${name}: repository (url and directory) is missing`);
  if (library && manifest.sideEffects !== false) problems.push(`${name}: sideEffects should be false`);

  const bytes = await readFile(tarball);
  // Its folder is the tarball's own (no pkgDir): publint reads what is published, nothing else.
  const { messages } = await publint({
    strict: true,
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
  });
  for (const m of messages) problems.push(`${name}: publint ${m.type} ${m.code} at ${m.path.join(".")}`);
  console.log(`  publint: ${messages.length === 0 ? "no problems" : `${messages.length} problem(s)`}`);

  if (!library) {
    console.log("  attw: not a library (a bin only), nothing to import");
    return;
  }
  // ESM only, by design: types must resolve for ESM under node16 and for bundlers.
  const attw = await run(
    join(root, "node_modules/.bin/attw"),
    [tarball, "--profile", "esm-only", "--format", "json"],
    {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  const report = JSON.parse(attw.stdout || "{}") as {
    analysis?: { problems?: Array<{ kind: string; resolutionKind?: string }> };
  };
  // The esm-only profile's own ignores: CommonJS importers and node10 resolution (which has no
  // subpath exports, such as @cwp/client/node-version); its JSON lists them all the same.
  const found = (report.analysis?.problems ?? []).filter(
    (p) =>
      p.kind !== "CJSResolvesToESM" && p.resolutionKind !== "node10" && p.resolutionKind !== "node16-cjs",
  );
  for (const p of found) problems.push(`${name}: attw ${p.kind}`);
  console.log(
    `  attw (node16 ESM, bundler): ${found.length === 0 ? "types resolve" : `${found.length} problem(s)`}`,
  );
}

const packages = await workspacePackages();
const releases = await plannedReleases();
console.log("Versions a release of the pending changesets would give:");
if (releases.length === 0) console.log("  (no changesets: nothing to release)");
for (const r of releases) {
  const manifest = packages.find((p) => p.manifest.name === r.name)?.manifest;
  console.log(
    `  ${r.name} ${manifest?.version ?? "?"} -> ${r.newVersion} (${r.type})${manifest?.private ? ", private: not published" : ", published to npm"}`,
  );
}

const actionVersions = new Set(
  releases
    .filter((r) => packages.some((p) => p.manifest.name === r.name && p.dir.includes("/actions/")))
    .map((r) => r.newVersion),
);
if (actionVersions.size > 1)
  problems.push(`the actions would not move together: ${[...actionVersions].join(", ")}`);
const actions = [...actionVersions][0];
console.log("\nTags for the actions (one version for every uses: path):");
if (actions === undefined) console.log("  (no action changes: no tag)");
else console.log(`  create v${actions}\n  move   v${actions.split(".")[0]} -> v${actions}`);

const tarballs = await mkdtemp(join(tmpdir(), "cwp-release-tarballs-"));
try {
  for (const { dir, manifest } of packages.filter((p) => !p.manifest.private))
    await checkPackage(dir, manifest, tarballs);
} finally {
  await rm(tarballs, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`\nA release would publish broken packages:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
console.log("\nEvery public package would publish whole, with its types, README and LICENSE.");
