import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

// Most machines have an older Node than cwp needs (Node 20 here, as on CI's machine): cwp says
// which it needs, instead of dying while loading.

/** A Node on PATH older than 22.19, if there is one. */
function olderNode(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const node = join(dir, "node");
    if (!dir || !existsSync(node)) continue;
    const [major = 0, minor = 0] = execFileSync(node, ["-p", "process.versions.node"], { encoding: "utf8" })
      .trim()
      .split(".")
      .map(Number);
    if (major < 22 || (major === 22 && minor < 19)) return node;
  }
  return undefined;
}

const older = olderNode();

describe.skipIf(older === undefined)(`cwp under an older Node (${older})`, () => {
  it.each([["--help"], ["trigger-build", "--project-id", "p", "--service-id", "s"], ["emulator"]])(
    "cwp %s says in one sentence which Node it needs and how to get it, and exits 1",
    async (...args) => {
      const result = await runCli(args, { node: older });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(
        /^cwp needs Node\.js 22\.19 or later, and this is Node\.js \d+\.\d+\.\d+: install Node\.js 24 /,
      );
    },
  );
});
