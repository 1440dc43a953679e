import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** What every package's tests run with, alone (`pnpm --filter X test`) or as a project of the root's run. */
export const projectTest = {
  include: ["test/**/*.test.ts"],
  // A worker runs one file after another with the modules the earlier ones loaded (the emulator,
  // the client, vitest's own runner): loading them again for every file was a tenth of the suite's
  // CPU. A file's own state lives in its hooks: a harness several files import has each file arm
  // it (`harnessPlatform`'s use()), never hooks of its own at its top level.
  isolate: false,
  // Outside `pnpm test`, a package's tests build it (and what it needs) first: never a stale bundle.
  globalSetup: [fileURLToPath(new URL("./scripts/build-first.ts", import.meta.url))],
  // Bounds on a hang, not measurements: a test that spawns processes (a bundle, the CLI, a
  // rehearsal) takes three times as long on two cores beside two busy loops (pnpm test:loaded).
  testTimeout: 60_000,
  hookTimeout: 60_000,
};

/**
 * One pool for a run, sized to the machine: twice its cores. The test files start processes
 * (bundles, the CLI, rehearsals) and wait on them; on two cores, three files at a time left the
 * cores partly idle (the suite 660 s), four kept them busy (518 s). More only makes every file's
 * processes compete for the same cores.
 */
export const poolSize = availableParallelism() * 2;

/** The JSON results `.ci/run` and `pnpm test:at` read (the plain closing line, the slowest files). */
export const reporters = [
  "default",
  ["json", { outputFile: process.env.CWP_TEST_RESULTS_FILE ?? "test-results.json" }],
] as const;

// One package's tests (run from its folder: `vitest run --config ../../vitest.shared.ts`). A test
// that runs a package's tests itself (CONTRIBUTING's commands) names another results file, so that
// the run's own results are not replaced by a partial one.
export default defineConfig({
  test: { ...projectTest, maxWorkers: poolSize, reporters: [...reporters] },
});
