import type { z } from "zod";
import { StepFailure, type SummaryRow } from "./host.js";
import type { OutputKind } from "./output-kinds.js";

// A record of the step's work kept outside the platform (GitHub Deployments). The engine tells it
// when the work is about to start, when it has started and how the step ended; it knows nothing
// of GitHub. A host that keeps one brings it with its own inputs and outputs (`Recorder`).

/** How the step ended, as a record tells it. */
export interface StepEnd {
  outcome:
    | "succeeded"
    /** The work concluded unsuccessfully, or the platform refused it. */
    | "failed"
    /** The step could not tell how the work ended (an unanswered start, an unexpected error). */
    | "unknown"
    /** Cancelled or timed out, and the work was aborted (or had not started). */
    | "stopped"
    /** Cancelled or timed out, and the work may still be running. */
    | "abandoned";
  /** The step's closing line: what ran and how it ended. */
  summary: string;
}

export interface WorkRecord {
  /**
   * Before anything is sent to the platform, within the step's cancel and deadline; a throw ends
   * the step with nothing started.
   */
  open(budget: { signal: AbortSignal; deadline: number }): Promise<void>;
  /**
   * The work has started: what runs, and how long such work usually takes (ms, from history).
   * Told in the background, never holding the step: `close` settles it first.
   */
  started(title: string, usualMs: number | undefined): void;
  /**
   * The step's end, within `withinMs`. Once: a second call does nothing. Never throws: a record it
   * cannot keep is a warning, never a change to the step's result.
   */
  close(end: StepEnd, withinMs: number): Promise<void>;
  /** For the summary, once opened. */
  rows(): SummaryRow[];
  /** Step outputs, once opened. */
  outputs(): Record<string, string | undefined>;
}

/** The record could not be opened: the step ends with this message, nothing sent to the platform. */
export class RecordRefused extends StepFailure {
  override name = "RecordRefused";
}

/** What a host adds to the actions that start work to keep a record: inputs, outputs, the record. */
export interface Recorder<S extends z.ZodRawShape = z.ZodRawShape> {
  inputs: S;
  outputs: Record<string, OutputKind>;
  /**
   * The record the parsed inputs (all of the action's, with these) ask for, or none. Checks that
   * need the whole config throw an InputError, before anything is sent anywhere.
   */
  create(config: Record<string, unknown>, action: string): WorkRecord | undefined;
}
