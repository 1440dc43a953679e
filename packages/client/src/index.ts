// First, before undici loads: an older Node gets one sentence, not undici's stack trace. (A
// bundler may leave it out, sideEffects being false: a bundle runs where its maker chose.)
import "./node-check.js";

export { type ClientOptions, CwpClient, createClient, type RawRequest } from "./client.js";
export type { CallOptions } from "./core/core.js";
export { JsonArraySplitter, type SplitPiece } from "./core/json-array-splitter.js";
export { MAX_PAGES, PageWalk } from "./core/page-walk.js";
export { cursorPages, type Page } from "./core/pagination.js";
export { path } from "./core/path.js";
export { issuesToDetails } from "./core/validate.js";
export {
  LOG_CLOCK_SKEW_MS,
  LogFollower,
  type LogFollowerOptions,
  type LogPacing,
  type LogStreamOptions,
} from "./logs/follower.js";
export { type FetchLogs, type LogFilters, MAX_PAGE_SIZE } from "./logs/page-reader.js";
export { type LogRangeOptions, logRangePages } from "./logs/range.js";
export { RESTORE_LISTING_GRACE_MS } from "./resources/addons.js";
export { drillDownCount } from "./resources/billing.js";
export { RESTART_CLOCK_TOLERANCE_MS } from "./resources/services.js";
export type { StreamOptions, UsageLevel, UsagePageRead, UsagePart } from "./resources/usage-stream.js";
export * from "./schemas/index.js";
export { parseTimestamp } from "./timestamps.js";
export {
  type Clock,
  clockSpan,
  clockTimeAfter,
  realSpan,
  spedUpClock,
  systemClock,
} from "./transport/clock.js";
export * from "./transport/errors.js";
export type { RateLimitBudget, RateLimitState } from "./transport/rate-limit.js";
export {
  emitCwpWarning,
  type HttpMethod,
  type QueryValue,
  type RequestSafety,
  type TransportOptions,
} from "./transport/transport.js";
export { VERSION } from "./version.js";
export * from "./waiting/conclusions.js";
export type { HistoryOptions } from "./waiting/history.js";
export {
  PLATFORM_FAULT_READS,
  type WaitOptions,
  WaitTimeoutError,
  WaitUnreadableError,
} from "./waiting/poll.js";
export { PollSchedule, type PollScheduleOptions, typicalDurations } from "./waiting/schedule.js";
