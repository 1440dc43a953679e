import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { olderNodeOnPath } from "@cwp/action-testing";
import { requireNode } from "@cwp/client/node-version";
import { describe, expect, it } from "vitest";

// Importing @cwp/client or @cwp/cost-report on a Node older than they need (Node 20 here, as on
// most machines) says which Node they need in one sentence, not undici's stack trace from loading.

const older = olderNodeOnPath();
const here = fileURLToPath(new URL("..", import.meta.url));

describe("the Node a package needs", () => {
  it("is checked against 22.19", () => {
    expect(() => requireNode("@cwp/x", "22.19.0")).not.toThrow();
    expect(() => requireNode("@cwp/x", "24.1.0")).not.toThrow();
    expect(() => requireNode("@cwp/x", "22.18.9")).toThrow(
      // Loaded from this clone, whose set-up brought Node 24: the message says how to run with it.
      "@cwp/x needs Node.js 22.19 or later, and this is Node.js 22.18.9: inside this clone, run it with the clone's Node 24: `pnpm exec node ...`",
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
          `^${name.replace("/", "\\/")} needs Node\\.js 22\\.19 or later, and this is Node\\.js \\d+\\.\\d+\\.\\d+: inside this clone, run it with the clone's Node 24: \`pnpm exec node`,
        ),
      );
      expect(result.stderr).not.toContain("undici");
    },
  );
});
