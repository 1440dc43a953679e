/** How a waiter spaces its polls. */
export interface PollScheduleOptions {
  /** First interval and the cap it backs off to, ms. Defaults 1 000 and 10 000. */
  initialIntervalMs?: number;
  maxIntervalMs?: number;
  /**
   * How long earlier runs of the same work took, ms (a service's recent builds). With at least
   * three, the polls gather where those runs ended instead of backing off evenly.
   */
  expectedDurationsMs?: readonly number[];
  /** Polls to plan with that history, the first one included. Default 15. */
  plannedPolls?: number;
}

const MIN_HISTORY = 3;
/** Checks before the earliest expected conclusion, so an early failure is not noticed late. */
const EARLY_CHECKS = 2;

/**
 * When to poll next. Without history: soon at first, then backing off by half each time to a cap,
 * so short work is noticed quickly and long work does not cost a request every second. With
 * history: a few early checks, then polls at the quantiles of the earlier durations, where the
 * work is most likely to end; past the longest of them, the backoff again.
 */
export class PollSchedule {
  readonly #initial: number;
  readonly #max: number;
  /** Planned poll times, ms after the start, ascending. */
  readonly #plan: number[];
  #interval: number;

  constructor(
    options: PollScheduleOptions,
    private readonly startedAt: number,
  ) {
    this.#initial = options.initialIntervalMs ?? 1_000;
    this.#max = Math.max(this.#initial, options.maxIntervalMs ?? 10_000);
    this.#interval = this.#initial;
    const history = [...(options.expectedDurationsMs ?? [])].filter((d) => d > 0).sort((a, b) => a - b);
    this.#plan = history.length >= MIN_HISTORY ? planFromHistory(history, options.plannedPolls ?? 15) : [];
  }

  /** Milliseconds from `now` to the next poll. */
  next(now: number): number {
    const elapsed = now - this.startedAt;
    const planned = this.#plan.find((at) => at > elapsed + this.#initial / 2);
    if (planned !== undefined) return planned - elapsed;
    const wait = this.#interval;
    this.#interval = Math.min(this.#max, this.#interval * 1.5);
    return wait;
  }
}

/** Poll times (ms after the start) for work expected to take one of `sorted` (ascending). */
function planFromHistory(sorted: number[], polls: number): number[] {
  const earliest = sorted[0] as number;
  const inWindow = Math.max(1, polls - 1 - EARLY_CHECKS);
  const early = Array.from({ length: EARLY_CHECKS }, (_, i) => (earliest * (i + 1)) / (EARLY_CHECKS + 1));
  const window = Array.from({ length: inWindow }, (_, i) => quantile(sorted, (i + 1) / inWindow));
  return [...early, ...window];
}

/** The p-quantile of ascending values, interpolating linearly between them. */
function quantile(sorted: number[], p: number): number {
  const position = p * (sorted.length - 1);
  const below = Math.floor(position);
  const low = sorted[below] as number;
  const high = sorted[Math.min(sorted.length - 1, below + 1)] as number;
  return low + (high - low) * (position - below);
}
