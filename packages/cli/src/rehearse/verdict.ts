import type { JobRecord } from "@cwp/workflow-rehearsal";
import { EXIT_CODES } from "../exit-codes.js";
import type { CwpStepResult } from "./step-runner.js";

// The verdicts of `cwp rehearse`, computed once for the text and for `--json` (one JSON document
// for a script; the steps' own lines go to stderr meanwhile). A job "pass"es only where every step that decides it
// was rehearsed; else "pass-as-far-as-rehearsed", with each step (or job) not rehearsed and why.

export type JobVerdict =
  | "pass"
  | "pass-as-far-as-rehearsed"
  | "fail"
  | "cancelled"
  | "not-run"
  | "not-rehearsed";

export interface RehearsalJson {
  workflow: string;
  event: string;
  /** Whether the event starts the workflow at all (its `on:` and filters). */
  runs: boolean;
  verdict: "pass" | "pass-as-far-as-rehearsed" | "fail" | "cancelled";
  exitCode: number;
  jobs: {
    id: string;
    job: string;
    verdict: JobVerdict;
    /** Why it did not run, or was not rehearsed. */
    reason: string | null;
    failedSteps: string[];
    notRehearsed: { step: string; why: string }[];
    findings: string[];
    /** What the runner would warn of at a step (a deprecated input, an action forced onto Node 24): never a failure. */
    warnings: { step: string; warning: string }[];
    outputs: Record<string, string | null>;
    /** Seconds from its runner's set-up to its end, all its matrix runs; null where it was not rehearsed. */
    seconds: number | null;
  }[];
}

/**
 * A secret a step reads that the rehearsal was not given: on GitHub a secret that is not set reads
 * as '' ("Using secrets in GitHub Actions"), and so it does here; the step runs with it empty.
 */
export const secretNotGiven = (name: string) =>
  `secrets.${name} is not given (--secret ${name}): it is '' here, as on GitHub where it is not set`;

/** The steps that failed a job: refused, or ended non-zero without continue-on-error. */
export const failedSteps = (record: JobRecord<CwpStepResult>) =>
  record.steps.filter((s) => {
    const code = (s.result ?? s.script ?? s.local ?? s.checkout)?.code;
    return s.kind === "refused" || (!s.continuedOnError && code !== undefined && code !== 0);
  });

/** The steps of a job that decide its verdict and were not rehearsed. */
export const notRehearsed = (record: JobRecord<CwpStepResult>) =>
  record.steps.filter((s) => s.notRehearsed !== undefined);

/** A job's verdict: what the text's closing line of the job says, and --json's `verdict`. */
export function jobVerdict(record: JobRecord<CwpStepResult>): JobVerdict {
  if (record.notRehearsed) return "not-rehearsed";
  if (record.result === "cancelled" && record.findings.length === 0) return "cancelled";
  if (!record.ran && record.success) return "not-run";
  if (!record.success) return "fail";
  return notRehearsed(record).length > 0 ? "pass-as-far-as-rehearsed" : "pass";
}

/** The rehearsal's one verdict, from every job's: what the text ends with, --json's, and the exit code. */
export function rehearsalVerdict(records: readonly JobRecord<CwpStepResult>[]) {
  const verdicts = records.map(jobVerdict);
  const failed = records.filter((_, i) => verdicts[i] === "fail");
  const verdict: RehearsalJson["verdict"] =
    failed.length > 0
      ? "fail"
      : verdicts.includes("cancelled")
        ? "cancelled"
        : verdicts.some((v) => v === "pass-as-far-as-rehearsed" || v === "not-rehearsed")
          ? "pass-as-far-as-rehearsed"
          : "pass";
  return {
    verdict,
    failed,
    /** The steps and jobs not rehearsed, which the "as far as rehearsed" names. */
    notRehearsed: records.flatMap(notRehearsed).length + records.filter((r) => r.notRehearsed).length,
    exitCode: failed.length > 0 ? EXIT_CODES.failed : EXIT_CODES.success,
  };
}

export function rehearsalJson(
  workflow: string,
  event: string,
  records: readonly JobRecord<CwpStepResult>[],
  /** The rehearsal's exit code, where a cancel decides it (130, 143); else the verdict's. */
  exitCode = rehearsalVerdict(records).exitCode,
  /** Each job's seconds, by id. */
  seconds: ReadonlyMap<string, number> = new Map(),
): RehearsalJson {
  const jobs = records.map((record) => ({
    id: record.id,
    job: record.job,
    verdict: jobVerdict(record),
    reason: record.reason ?? null,
    failedSteps: failedSteps(record).map((s) => s.name),
    notRehearsed: notRehearsed(record).map((s) => ({ step: s.name, why: s.notRehearsed ?? "" })),
    findings: record.findings,
    warnings: record.steps.flatMap((s) =>
      [...(s.local?.warnings ?? []), ...[...(s.secretsNotGiven ?? [])].map(secretNotGiven)].map(
        (warning) => ({
          step: s.name,
          warning,
        }),
      ),
    ),
    // An output only a step not rehearsed sets is not known: null, never "".
    outputs: Object.fromEntries(
      Object.entries(record.outputs).map(([name, value]) => [name, typeof value === "string" ? value : null]),
    ),
    seconds: seconds.get(record.id) ?? null,
  }));
  const { verdict } = rehearsalVerdict(records);
  return { workflow, event, runs: records.length > 0, verdict, exitCode, jobs };
}
