// The wait-efficiency targets, each with what was measured against it: printed by main.ts and
// asserted in CI by test/wait-efficiency*.test.ts, a file per scenario.
import type { tenWaitsStreamingLogs, withHistory, withoutHistory } from "./scenarios.ts";

export interface Measured {
  noHistory: Awaited<ReturnType<typeof withoutHistory>>;
  history: {
    spread5: Awaited<ReturnType<typeof withHistory>>;
    spread20: Awaited<ReturnType<typeof withHistory>>;
  };
  ten: Awaited<ReturnType<typeof tenWaitsStreamingLogs>>;
}

export interface Target {
  name: string;
  met: boolean;
  measured: unknown;
}

/** Ten waits on one account: the mean notice delay may be at most this, s (see bench/README). */
export const TEN_WAITS_MEAN_DELAY_S = 12;
/** The log lines the ten builds print. */
export const TEN_WAITS_LOG_LINES = 80;

/** Every target, each with what was measured against it. */
export function targets(m: Measured): Target[] {
  return [...noHistoryTargets(m.noHistory), ...historyTargets(m.history), ...tenWaitsTargets(m.ten)];
}

/** Without history: ours beside fixed intervals. */
export function noHistoryTargets(noHistory: Measured["noHistory"]): Target[] {
  const [ours, ...fixed] = noHistory;
  const dominatedBy = fixed
    .filter((f) => ours && f.meanRequests < ours.meanRequests && f.meanDelayS < ours.meanDelayS)
    .map((f) => f.strategy);
  return [
    {
      name: "no history: no fixed interval both spends fewer requests and notices sooner",
      met: dominatedBy.length === 0,
      measured: { dominatedBy },
    },
  ];
}

/** With the service's recent build durations as history, ±5% and ±20% around the median. */
export function historyTargets(history: Measured["history"]): Target[] {
  const [spread5, spread20] = [history.spread5[0], history.spread20[0]];
  return [
    {
      name: "history ±5%: at most 15 requests per build within 20% of the median",
      met: (spread5?.maxRequestsNearMedian ?? 99) <= 15,
      measured: spread5?.maxRequestsNearMedian,
    },
    {
      name: "history ±5%: mean notice delay under 5 s",
      met: (spread5?.meanDelayS ?? 99) < 5,
      measured: spread5?.meanDelayS,
    },
    {
      name: "history ±20%: at most 15 requests per build within 20% of the median",
      met: (spread20?.maxRequestsNearMedian ?? 99) <= 15,
      measured: spread20?.maxRequestsNearMedian,
    },
  ];
}

/** Ten waits with log streaming sharing one account's 1000-request hour. */
export function tenWaitsTargets(ten: Measured["ten"]): Target[] {
  return [
    { name: "ten waits on one account: no 429", met: ten.rateLimited === 0, measured: ten.rateLimited },
    {
      name: "ten waits on one account: no failed log read",
      met: ten.logErrors === 0,
      measured: ten.logErrors,
    },
    {
      name: `ten waits on one account: every one of the ${TEN_WAITS_LOG_LINES} log lines streamed once`,
      met: ten.logLines === TEN_WAITS_LOG_LINES && ten.distinctLogLines === TEN_WAITS_LOG_LINES,
      measured: { lines: ten.logLines, distinct: ten.distinctLogLines },
    },
    {
      name: `ten waits on one account: mean notice delay at most ${TEN_WAITS_MEAN_DELAY_S} s`,
      met: ten.meanDelayS <= TEN_WAITS_MEAN_DELAY_S,
      measured: ten.meanDelayS,
    },
    {
      name: "ten waits on one account: within the account's 1000 requests (100 a build)",
      met: ten.requestsPerBuild <= 100,
      measured: ten.requestsPerBuild,
    },
  ];
}
