import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Outside turbo, a package's tests build it (and what it needs) first: never a stale bundle.
    globalSetup: [fileURLToPath(new URL("./scripts/build-first.ts", import.meta.url))],
    // Bounds on a hang, not measurements: a test that spawns processes (a bundle, the CLI, a
    // rehearsal) takes three times as long on two cores beside two busy loops (pnpm test:loaded).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Test files side by side, more than the two cores: the actions' contract files mostly wait
    // (on timeouts, on the emulator's clock), so four at a time fill the time they leave.
    maxWorkers: 4,
    // One config for every package (run from the package folder). The JSON results let .ci/run print one plain "N passed, N failed" line for the whole tree.
    // A test that runs a package's tests itself (CONTRIBUTING's commands) names another file, so that
    // the package's own results are not replaced by a partial run.
    reporters: [
      "default",
      ["json", { outputFile: process.env.CWP_TEST_RESULTS_FILE ?? "test-results.json" }],
    ],
  },
});
