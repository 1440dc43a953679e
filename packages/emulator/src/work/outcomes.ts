import type { Outcome, OutcomeKind, ScriptedOutcomes } from "../model/outcome.js";

// What the next piece of work of a kind does, scripted through POST /_emulator/outcomes. Unscripted
// work takes its default duration and succeeds.

export class Outcomes {
  #queues = new Map<OutcomeKind, Outcome[]>();

  push(outcome: Outcome): void {
    this.#queues.set(outcome.kind, [...(this.#queues.get(outcome.kind) ?? []), outcome]);
  }

  /** The scripted outcome for the next work of this kind, else the resource's own, else the default. */
  take(kind: OutcomeKind, own?: ScriptedOutcomes): Outcome {
    return this.#queues.get(kind)?.shift() ?? { ...own?.[kind], kind };
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
