/** How a waiter spaces its polls. */
export interface PollScheduleOptions {
  /** First interval and the cap it backs off to, ms. Defaults 1 000 and 10 000. */
  initialIntervalMs?: number;
  maxIntervalMs?: number;
  /**
   * How long earlier runs of the same work took, ms (a service's recent builds). With at least
   * three (outliers left out: see `typicalDurations`), the polls gather where those runs ended
   * instead of backing off evenly.
   */
  expectedDurationsMs?: readonly number[];
  /**
   * Requests to plan with that history, the one that read it included, for work that ends within
   * 20% of the earlier runs' median. Default 15.
   */
  plannedRequests?: number;
}

const MIN_HISTORY = 3;
/**
 * How far outside the middle half of the history (on a log scale, in widths of that half) a
 * duration may lie and still be planned for; the half's width is taken as at least LOG_SPREAD.
 */
const FENCE = 1.5;
const LOG_SPREAD = Math.log(1.5);
/** Checks before the earliest expected conclusion, so an early failure is not noticed late. */
const EARLY_CHECKS = 1;
/** The planned polls cover at least this far either side of the median. */
const SPREAD = 0.2;
/** Cells the window is cut into to place the polls; the narrowest kernel, of the median. */
const GRID = 400;
const MIN_BANDWIDTH = 0.005;
/** The least poll density, as a share of the highest. */
const FLOOR = 0.03;

/**
 * When to poll next. Without history: soon at first, then backing off by half each time to a cap,
 * so short work is noticed quickly and long work does not cost a request every second. With
 * history: an early check, then polls gathered where the earlier runs ended (covering at least
 * 20% either side of their median); past the plan (work slower than ever before), the backoff.
 */
export class PollSchedule {
  readonly #initial: number;
  readonly #max: number;
  /** Planned poll times, ms after the start, ascending. */
  readonly #plan: number[];
  #interval: number;
  #first = true;

  constructor(
    options: PollScheduleOptions,
    private readonly startedAt: number,
    /** Epoch ms past which no poll is planned (the wait's deadline). */
    deadline = Number.POSITIVE_INFINITY,
  ) {
    this.#initial = options.initialIntervalMs ?? 1_000;
    this.#max = Math.max(this.#initial, options.maxIntervalMs ?? 10_000);
    this.#interval = this.#initial;
    const history = typicalDurations(options.expectedDurationsMs ?? []);
    // One request read the history; the rest are polls, none needed right after the start. A plan
    // whose first poll would come after the deadline is no plan: the backoff polls from the start.
    const plan =
      history.length >= MIN_HISTORY ? planFromHistory(history, (options.plannedRequests ?? 15) - 1) : [];
    const horizon = deadline - startedAt;
    this.#plan = (plan[0] ?? 0) < horizon ? plan.filter((at) => at < horizon) : [];
  }

  /** Milliseconds from `now` to the next poll; the first is at once unless history plans it. */
  next(now: number): number {
    const elapsed = now - this.startedAt;
    if (this.#first) {
      this.#first = false;
      // The start's answer already showed the first status: with a plan, nothing to see before it.
      if (this.#plan.length === 0) return 0;
    }
    const planned = this.#plan.find((at) => at > elapsed + this.#initial / 2);
    if (planned !== undefined) return planned - elapsed;
    const wait = this.#interval;
    this.#interval = Math.min(this.#max, this.#interval * 1.5);
    return wait;
  }
}

/**
 * The durations to plan with, ascending: positive ones, less the outliers. One build of 72 hours
 * among builds of 3 seconds says nothing about when the next one ends, and a plan spanning both
 * would leave the next poll hours away. Outliers are those beyond Tukey's fences on a log scale
 * (durations spread by ratios), with the middle half's width taken as at least LOG_SPREAD, so a
 * history of near-equal durations still keeps those within half again of them.
 */
export function typicalDurations(durations: readonly number[]): number[] {
  const sorted = durations.filter((d) => d > 0 && Number.isFinite(d)).sort((a, b) => a - b);
  if (sorted.length < MIN_HISTORY) return sorted;
  const logs = sorted.map(Math.log);
  const q1 = quantile(logs, 0.25);
  const q3 = quantile(logs, 0.75);
  const width = Math.max(q3 - q1, LOG_SPREAD);
  const [low, high] = [q1 - FENCE * width, q3 + FENCE * width];
  return sorted.filter((_, i) => (logs[i] as number) >= low && (logs[i] as number) <= high);
}

/**
 * Poll times (ms after the start) for work that took `history` (ascending) before: `polls` in all. With n polls, the mean delay between the conclusion and the
 * poll that sees it is smallest when the polls' density follows the square root of the durations'
 * density; that density is estimated from the history (a Gaussian kernel), with a floor so the
 * window's thin ends still get polls.
 */
function planFromHistory(history: number[], polls: number): number[] {
  const median = quantile(history, 0.5);
  const lo = Math.min(history[0] as number, median * (1 - SPREAD));
  const hi = Math.max(history.at(-1) as number, median * (1 + SPREAD));
  const mean = history.reduce((a, b) => a + b, 0) / history.length;
  const sd = Math.sqrt(history.reduce((a, d) => a + (d - mean) ** 2, 0) / history.length);
  const bandwidth = Math.max(median * MIN_BANDWIDTH, 1.06 * sd * history.length ** -0.2);
  const step = (hi - lo) / GRID;
  const root = Array.from({ length: GRID }, (_, j) => {
    const x = lo + (j + 0.5) * step;
    return Math.sqrt(history.reduce((a, d) => a + Math.exp(-0.5 * ((x - d) / bandwidth) ** 2), 0));
  });
  const floor = Math.max(...root) * FLOOR;
  const weights = root.map((w) => w + floor);
  const total = weights.reduce((a, b) => a + b, 0);
  const inWindow = Math.max(1, polls - EARLY_CHECKS);
  const window: number[] = [];
  let cumulative = 0;
  for (const [j, w] of weights.entries()) {
    cumulative += w;
    // Each poll closes a cell holding an equal share of the weight; the last one closes at `hi`.
    while (window.length < inWindow && cumulative >= (total * (window.length + 1)) / inWindow - 1e-9)
      window.push(lo + (j + 1) * step);
  }
  const early = Array.from({ length: EARLY_CHECKS }, (_, i) => (lo * (i + 1)) / (EARLY_CHECKS + 1));
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
