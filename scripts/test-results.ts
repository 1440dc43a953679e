// What vitest's JSON results say (vitest.shared.ts writes them): how many passed, failed and were
// skipped, the name of every test that failed (or of a file that failed with no test), and each
// file's time. `pnpm test` closes with the slowest files; `.ci/run` prints the failures and one
// plain "N passed, N failed, N skipped" line (`node scripts/test-results.ts FILE...`), and
// `pnpm test:at` each package's counts.
import { readFileSync } from "node:fs";
import { relative } from "node:path";

export interface Tally {
  passed: number;
  failed: number;
  skipped: number;
  /** "path > full test name", or "path: why the file failed". */
  failures: string[];
  /** Each file's wall time (its tests, set-up and hooks, beside the rest of the run), slowest first. */
  files: { path: string; seconds: number; tests: number }[];
}

interface Results {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests?: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    startTime: number;
    endTime: number;
    assertionResults: { status: string; fullName: string }[];
  }[];
}

/** The results files summed; paths in the failures relative to `root`. */
export function tally(files: readonly string[], root = process.cwd()): Tally {
  const sum: Tally = { passed: 0, failed: 0, skipped: 0, failures: [], files: [] };
  for (const file of files) {
    const r = JSON.parse(readFileSync(file, "utf8")) as Results;
    sum.passed += r.numPassedTests;
    sum.failed += r.numFailedTests;
    sum.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    for (const result of r.testResults) {
      const where = relative(root, result.name);
      sum.files.push({
        path: where,
        seconds: (result.endTime - result.startTime) / 1000,
        tests: result.assertionResults.length,
      });
      const tests = result.assertionResults.filter((t) => t.status === "failed");
      for (const t of tests) sum.failures.push(`${where} > ${t.fullName}`);
      if (result.status === "failed" && tests.length === 0)
        sum.failures.push(`${where}: ${(result.message || "failed").split("\n")[0]}`);
    }
  }
  sum.files.sort((a, b) => b.seconds - a.seconds);
  return sum;
}

/** Where the time went, for whoever waits on the tests: the ten slowest files of a run. */
export function slowestFiles({ files }: Tally, count = 10): string {
  return [
    `The ${count} slowest test files (each one's wall time, beside the rest of the run):`,
    ...files
      .slice(0, count)
      .map((f) => `${f.seconds.toFixed(1).padStart(7)} s  ${f.path} (${f.tests} tests)`),
  ].join("\n");
}

if (import.meta.main) {
  const { passed, failed, skipped, failures } = tally(process.argv.slice(2));
  if (failures.length > 0) console.log(`Failed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
}
