import { z } from "zod";

// What the next piece of work of a kind does, scripted through POST /_emulator/outcomes. Unscripted
// work takes its default duration and succeeds.

export const OUTCOME_KINDS = [
  "build",
  "jobRun",
  "templateRun",
  "addonUpgrade",
  "restore",
  "restart",
] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

export const outcomeSchema = z.strictObject({
  kind: z.enum(OUTCOME_KINDS),
  /** Virtual seconds from start to conclusion. */
  durationSeconds: z.number().min(0).max(86_400).optional(),
  /** Whether the work ends well; the final status follows the resource's own vocabulary. */
  succeed: z.boolean().optional(),
  /** An explicit final status (e.g. `CRASHED` for a build, `not-supported` for a restore). */
  status: z.string().min(1).optional(),
  message: z.string().optional(),
  /**
   * The id the work gets (builds, job runs, template runs, restores) instead of a generated one:
   * any text, for clients that must cope with whatever the platform answers.
   */
  id: z.string().min(1).max(1000).optional(),
  /** Log lines the work prints (builds and job runs), replacing the generated ones. */
  logLines: z.array(z.string()).max(100_000).optional(),
  /** How many log lines share each timestamp (default 1): lines printed in the same millisecond. */
  linesPerInstant: z.number().int().min(1).max(1000).optional(),
});
export type Outcome = z.infer<typeof outcomeSchema>;

export class Outcomes {
  #queues = new Map<OutcomeKind, Outcome[]>();

  push(outcome: Outcome): void {
    this.#queues.set(outcome.kind, [...(this.#queues.get(outcome.kind) ?? []), outcome]);
  }

  /** The scripted outcome for the next work of this kind, or the default. */
  take(kind: OutcomeKind): Outcome {
    return this.#queues.get(kind)?.shift() ?? { kind };
  }

  pending(): Outcome[] {
    return [...this.#queues.values()].flat();
  }

  clear(): void {
    this.#queues.clear();
  }
}

/** Milliseconds the work takes: the scripted duration or the kind's default. */
export const durationMs = (outcome: Outcome, defaultSeconds: number) =>
  (outcome.durationSeconds ?? defaultSeconds) * 1000;
