import { statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { packagesWithTests } from "./scripts/workspace-packages.ts";
import { poolSize, projectTest, reporters } from "./vitest.shared.ts";

// `pnpm test`: every package's tests as one vitest run, in one pool of workers sized to the machine,
// the slowest files first. Packages side by side, each with a pool of its own, made the suite
// compete with itself on two cores (issue 80). One project for them all, not one per package: a
// worker goes on to the next file whichever package it is in, with the modules it has loaded
// (projectTest's `isolate: false`); a project per package started a worker for nearly every file.

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * The slowest files first across every package (vitest's own order takes one package after
 * another): a long file started last is the run's tail. What vitest measured in an earlier run on
 * this machine decides; a file it has not measured goes first, the larger first.
 */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const measured = new Map(
      files.map((spec) => [spec, this.ctx.cache.getTestSpecificationResult(spec)?.duration]),
    );
    const size = (spec: TestSpecification) => statSync(spec.moduleId).size;
    return [...files].sort((a, b) => {
      const [da, db] = [measured.get(a), measured.get(b)];
      if (da === undefined && db === undefined) return size(b) - size(a);
      if (da === undefined) return -1;
      if (db === undefined) return 1;
      return db - da;
    });
  }
}

/** The packages to test: those `pnpm test --filter=...` picked (scripts/test.ts), else every one. */
const folders = process.env.CWP_TEST_FOLDERS?.split(",") ?? packagesWithTests().map(({ dir }) => dir);

export default defineConfig({
  test: {
    ...projectTest,
    root,
    include: folders.flatMap((dir) => projectTest.include.map((glob) => join(dir, glob))),
    maxWorkers: poolSize,
    sequence: { sequencer: SlowestFirst },
    reporters: [...reporters],
  },
});
