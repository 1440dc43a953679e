// @cwp/cost-report: the Cloud Workload Platform's cost report, host-free. See README.md.

// First, before undici loads: an older Node gets one sentence, not undici's stack trace.
import "./node-check.js";

export type { Filters, Granularity } from "./collect.js";
export { Decimal, formatMoney } from "./decimal.js";
export { ReportDataError, ReportOptionError } from "./errors.js";
export type { GroupBy } from "./group.js";
export { PERIODS, type Period, type PeriodName, resolvePeriod } from "./period.js";
export { renderJson } from "./render/json.js";
export { type DetailLevel, fitMarkdown, MARKER, renderMarkdown } from "./render/markdown.js";
export { renderText } from "./render/text.js";
export type { Budget, Report, ShownRow, TrendPoint } from "./report.js";
export {
  type CostReport,
  type CostReportOptions,
  FILE_NAMES,
  FOCUS_DATASET_FOLDER,
  FOCUS_LAYOUTS,
  FORMATS,
  type FocusLayout,
  type Format,
  GRANULARITIES,
  GROUP_BYS,
  TEXT_RULES,
  writeCostReport,
} from "./write-report.js";
