import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

// The README's way to use this package from a clone, before a release is on npm, run as written:
// the three packages packed, their tarballs installed with npm into a project outside the
// workspace, and the package imported there.

const exec = promisify(execFile);
const here = fileURLToPath(new URL("..", import.meta.url));
const root = join(here, "../..");
/** What pnpm and turbo set for a script, which a user's shell has not. */
const SCRIPT_VARIABLES =
  /^(npm_(command|execpath|node_execpath|package_.*|lifecycle_.*|config_user_agent|config_verify_deps_before_run)|pnpm_.*|TURBO_.*)$/i;
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SCRIPT_VARIABLES.test(name)));

it("installs from tarballs packed in the clone, as the README says, and imports", {
  timeout: 300_000,
}, async () => {
  const readme = await readFile(join(here, "README.md"), "utf8");
  const lines =
    /Before a release is on npm[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1]?.trim().split("\n") ?? [];
  expect(lines).toHaveLength(2);
  const [pack = "", install = ""] = lines;
  const packs = await mkdtemp(join(tmpdir(), "cwp-packs-"));
  const project = await mkdtemp(join(tmpdir(), "cwp-cost-report-user-"));
  try {
    // The README's lines, with its folder for the tarballs a fresh one.
    await exec("bash", ["-euo", "pipefail", "-c", pack.replaceAll("/tmp/cwp-packs", packs)], {
      cwd: root,
      env,
      timeout: 120_000,
    });
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "user", private: true, type: "module" }),
    );
    // From npm's cache where it can (undici and zod); a registry it cannot reach fails npm within seconds.
    const quiet = "--prefer-offline --no-audit --no-fund --fetch-retries=1 --fetch-timeout=30000";
    await exec(
      "bash",
      ["-euo", "pipefail", "-c", `${install.replaceAll("/tmp/cwp-packs", packs)} ${quiet}`],
      {
        cwd: project,
        env,
        timeout: 240_000,
      },
    );
    const { stdout } = await exec(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        "const m = await import('@cwp/cost-report'); console.log(typeof m.writeCostReport, typeof (await import('@cwp/client')).createClient)",
      ],
      { cwd: project, env },
    );
    expect(stdout.trim()).toBe("function function");
  } finally {
    await rm(packs, { recursive: true, force: true });
    await rm(project, { recursive: true, force: true });
  }
});
