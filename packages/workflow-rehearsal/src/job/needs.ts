import type { SetByScript } from "../expressions.js";
import type { JobRecord, JobResult } from "../records.js";

/** A job's records (one per matrix combination) as the jobs that need it see them (`needs.<id>`). */
export function needsEntry(records: readonly JobRecord[] | undefined): {
  result: JobResult;
  outputs: Record<string, string | SetByScript>;
} {
  if (!records || records.length === 0) return { result: "skipped", outputs: {} };
  const result = records.some((r) => r.result === "failure")
    ? "failure"
    : records.some((r) => r.result === "cancelled")
      ? "cancelled"
      : records.every((r) => r.result === "skipped")
        ? "skipped"
        : "success";
  return { result, outputs: Object.assign({}, ...records.map((r) => r.outputs)) };
}
