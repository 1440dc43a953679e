import { z } from "zod";

// What a piece of work does, as scripted: through POST /_emulator/outcomes for the next work of a
// kind, or by a world file for every piece of work on one resource.

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

/** How work on a resource ends when /_emulator/outcomes scripts nothing (a world file's). */
export type ScriptedOutcomes = Partial<Record<OutcomeKind, Omit<Outcome, "kind"> | undefined>>;
