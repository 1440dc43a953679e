import { EXIT_CODES } from "../exit-codes.js";
import type { RehearsalJson } from "./verdict.js";

// `cwp rehearse` with no file answers for the whole event, as the pull request's checks list does
// ("All checks have passed", "Some checks were not successful"): each job of each workflow the
// event starts is a check; a workflow file GitHub refuses is a failing one ("Invalid workflow
// file"); a workflow the event does not start has no check, and is named with why.

export type WorkflowOutcome =
  | { file: string; started: false; why: string }
  | { file: string; started: true; refused: string }
  | { file: string; started: true; rehearsal: RehearsalJson };

export interface EventJson {
  event: string;
  ref: string;
  sha: string;
  verdict: RehearsalJson["verdict"];
  exitCode: number;
  workflows: Array<{
    file: string;
    started: boolean;
    /** Why the event does not start it. */
    why: string | null;
    /** GitHub's refusal of the file, line and column in it. */
    refused: string | null;
    rehearsal: RehearsalJson | null;
  }>;
}

/** The closing line, the exit code and the JSON of an event's rehearsal of every workflow. */
export function eventVerdict(
  outcomes: readonly WorkflowOutcome[],
  event: { name: string; ref: string; sha: string },
): { line: string; exitCode: number; json: EventJson } {
  const started = outcomes.filter((o): o is Exclude<WorkflowOutcome, { started: false }> => o.started);
  const notStarted = outcomes.length - started.length;
  const checks = started.flatMap((o) =>
    "refused" in o
      ? [{ name: `${o.file} (invalid workflow file)`, verdict: "fail" as const }]
      : o.rehearsal.jobs.map((j) => ({ name: `${o.file} / ${j.job}`, verdict: j.verdict })),
  );
  const count = (...verdicts: string[]) => checks.filter((c) => verdicts.includes(c.verdict)).length;
  const failing = checks.filter((c) => c.verdict === "fail");
  const cancelled = started.find((o) => "rehearsal" in o && o.rehearsal.verdict === "cancelled");
  const asFar = count("pass-as-far-as-rehearsed", "not-rehearsed") > 0;
  const skipped = count("not-run");
  const tally = `${count("pass", "pass-as-far-as-rehearsed")} successful${skipped > 0 ? `, ${skipped} skipped` : ""}${count("not-rehearsed") > 0 ? `, ${count("not-rehearsed")} not rehearsed` : ""}`;
  const rest = `${started.length} workflow(s) started, ${notStarted} not started`;
  const verdict: RehearsalJson["verdict"] =
    failing.length > 0 ? "fail" : cancelled ? "cancelled" : asFar ? "pass-as-far-as-rehearsed" : "pass";
  const exitCode =
    cancelled && "rehearsal" in cancelled
      ? cancelled.rehearsal.exitCode
      : failing.length > 0
        ? EXIT_CODES.failed
        : EXIT_CODES.success;
  const line =
    verdict === "cancelled"
      ? `Cancelled: the workflows after ${cancelled?.file} were not rehearsed.`
      : started.length === 0
        ? `No workflow would run for this ${event.name}: ${notStarted} not started.`
        : failing.length > 0
          ? `Some checks would fail: ${failing.length} failing (${failing.map((c) => c.name).join(", ")}), ${tally} (${rest}).`
          : `All checks would pass${asFar ? " as far as rehearsed" : ""}: ${tally} (${rest}).`;
  return {
    line,
    exitCode,
    json: {
      event: event.name,
      ref: event.ref,
      sha: event.sha,
      verdict,
      exitCode,
      workflows: outcomes.map((o) => ({
        file: o.file,
        started: o.started,
        why: o.started ? null : o.why,
        refused: "refused" in o ? o.refused : null,
        rehearsal: "rehearsal" in o ? o.rehearsal : null,
      })),
    },
  };
}
