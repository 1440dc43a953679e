// What vitest's JSON results say (vitest.shared.ts writes one a package): how many passed, failed
// and were skipped, and the name of every test that failed, or of a file that failed with no test.
// `.ci/run` prints the whole tree's (`node scripts/test-results.ts FILE...`: the failures, then one
// plain "N passed, N failed, N skipped" line), and `pnpm test:at` each package's.
import { readFileSync } from "node:fs";
import { relative } from "node:path";

export interface Tally {
  passed: number;
  failed: number;
  skipped: number;
  /** "path > full test name", or "path: why the file failed". */
  failures: string[];
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
    assertionResults: { status: string; fullName: string }[];
  }[];
}

/** The results files summed; paths in the failures relative to `root`. */
export function tally(files: readonly string[], root = process.cwd()): Tally {
  const sum: Tally = { passed: 0, failed: 0, skipped: 0, failures: [] };
  for (const file of files) {
    const r = JSON.parse(readFileSync(file, "utf8")) as Results;
    sum.passed += r.numPassedTests;
    sum.failed += r.numFailedTests;
    sum.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    for (const result of r.testResults) {
      const where = relative(root, result.name);
      const tests = result.assertionResults.filter((t) => t.status === "failed");
      for (const t of tests) sum.failures.push(`${where} > ${t.fullName}`);
      if (result.status === "failed" && tests.length === 0)
        sum.failures.push(`${where}: ${(result.message || "failed").split("\n")[0]}`);
    }
  }
  return sum;
}

if (import.meta.main) {
  const { passed, failed, skipped, failures } = tally(process.argv.slice(2));
  if (failures.length > 0) console.log(`Failed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
}
