import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// The demo (examples/demo.ts) and the benchmarks import this package on plain Node, not through
// Vite: it must load there (GitHub's workflow parser, whose schema JSON plain Node cannot import,
// is no dependency of it: the examples' tests bring the rehearsal).

it("loads on plain Node, as the demo and the benchmarks import it", () => {
  const result = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      'const m = await import("@cwp/action-testing"); console.log(typeof m.runBundle)',
    ],
    { cwd: fileURLToPath(new URL("..", import.meta.url)), encoding: "utf8" },
  );
  expect(result.stderr).toBe("");
  expect(result.stdout.trim()).toBe("function");
});
