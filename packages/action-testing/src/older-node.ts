import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

// Most machines have an older Node than our packages need (Node 20 here, as on CI's machine): the
// tests that check what such a Node is told run with it, where there is one.

/** A Node on PATH older than 22.19, if there is one. */
export function olderNodeOnPath(): string | undefined {
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
