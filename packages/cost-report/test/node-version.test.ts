import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { requireNode } from "@cwp/client/node-version";
import { describe, expect, it } from "vitest";

// Importing @cwp/client or @cwp/cost-report on a Node older than they need (Node 20 here, as on
// most machines) says which Node they need in one sentence, not undici's stack trace from loading.

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
const here = fileURLToPath(new URL("..", import.meta.url));

describe("the Node a package needs", () => {
  it("is checked against 22.19", () => {
    expect(() => requireNode("@cwp/x", "22.19.0")).not.toThrow();
    expect(() => requireNode("@cwp/x", "24.1.0")).not.toThrow();
    expect(() => requireNode("@cwp/x", "22.18.9")).toThrow(
      "@cwp/x needs Node.js 22.19 or later, and this is Node.js 22.18.9: install Node.js 24",
    );
    expect(() => requireNode("@cwp/x", "20.20.2")).toThrow(/this is Node\.js 20\.20\.2/);
  });

  it.skipIf(older === undefined).each(["@cwp/client", "@cwp/cost-report"])(
    `importing %s on an older Node (${older}) says, as the error's message, which Node it needs`,
    (name) => {
      const result = spawnSync(
        older as string,
        [
          "--input-type=module",
          "-e",
          `import(${JSON.stringify(name)}).catch((e) => { console.error(e.message); process.exit(1); })`,
        ],
        { cwd: here, encoding: "utf8" },
      );
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toMatch(
        new RegExp(
          `^${name.replace("/", "\\/")} needs Node\\.js 22\\.19 or later, and this is Node\\.js \\d+\\.\\d+\\.\\d+: install Node\\.js 24 `,
        ),
      );
      expect(result.stderr).not.toContain("undici");
    },
  );
});
