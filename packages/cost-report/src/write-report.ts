import { join } from "node:path";
import { type CwpClient, emitCwpWarning, RESOURCE_TYPES, type ResourceType } from "@cwp/client";
import type { Filters, Granularity } from "./collect.js";
import { Decimal } from "./decimal.js";
import { ReportOptionError } from "./errors.js";
import type { GroupBy } from "./group.js";
import {
  billingPeriodStarts,
  coversWholeBillingPeriods,
  PERIODS,
  type PeriodName,
  resolvePeriod,
} from "./period.js";
import { projectUid } from "./project-lookup.js";
import { readReport } from "./read-report.js";
import { renderJson } from "./render/json.js";
import { LineFile } from "./render/line-file.js";
import { renderMarkdown } from "./render/markdown.js";
import { buildReport, type Report } from "./report.js";

// A whole report from one call: the period resolved, the billing read as a stream, the files
// written to a directory. What a script, the usage-report action and the CLI all call. The files
// replace those of an earlier run, so they are written only from a complete read: every list is
// read whole (a list that repeats a page or never ends stops the report, IncompleteListError),
// and a report that stops leaves the earlier files as they were.

export const FORMATS = ["markdown", "csv", "json", "focus", "focus-parquet"] as const;
export type Format = (typeof FORMATS)[number];
export const GRANULARITIES = ["day", "month", "hour"] as const satisfies readonly Granularity[];
/** focus-parquet as one file (focus.parquet), or as a folder partitioned by billing period (focus/). */
export const FOCUS_LAYOUTS = ["file", "partitioned"] as const;
export type FocusLayout = (typeof FOCUS_LAYOUTS)[number];
/** The folder of the partitioned FOCUS dataset, in the report's directory. */
export const FOCUS_DATASET_FOLDER = "focus";
export const GROUP_BYS = [
  "team",
  "project",
  "resource-type",
  "resource",
] as const satisfies readonly GroupBy[];

/** The file each format writes in the report's directory. */
export const FILE_NAMES: Record<Format, string> = {
  markdown: "report.md",
  csv: "report.csv",
  json: "report.json",
  focus: "focus.csv",
  "focus-parquet": "focus.parquet",
};

export interface CostReportOptions {
  /** A named period (default month-to-date); or `start` and `end`, dates (UTC, end included). */
  period?: PeriodName | undefined;
  start?: string | undefined;
  end?: string | undefined;
  /** The trend's buckets (default day). */
  granularity?: Granularity | undefined;
  /** What the rows are (default project). */
  groupBy?: GroupBy | undefined;
  teamId?: string | undefined;
  /** Only this project, by its id (as the other actions take it) or its uid: looked up in the projects list. */
  project?: string | undefined;
  /** Only this project, by its uid (24 hex), as billing filters take it. */
  projectId?: string | undefined;
  resourceType?: ResourceType | undefined;
  /** Rows shown by name before the rest is summed as "other" (default 10). */
  top?: number | undefined;
  /** Compare with the period just before (default true). */
  compare?: boolean | undefined;
  /** An amount in the account's currency, such as "2500" or "1999.99". */
  budget?: string | undefined;
  /** The budget's share, in percent, from which the report warns (default 80). */
  warnPercent?: number | undefined;
  /** The directory the files go to; it must exist. */
  dir: string;
  formats: readonly Format[];
  /**
   * The billing account's name in the FOCUS dataset (BillingAccountName): the API names no
   * organisation or billing customer. Default: a team billed through its organisation is named by
   * the team's name, any other account is null.
   */
  billingAccountName?: string | undefined;
  /**
   * focus-parquet as one file (default), or `partitioned`: Hive-style folders under focus/, one per
   * billing period (`billing_period=YYYY-MM/`), each replaced whole by a run that covers it. Only a
   * period of whole billing periods (or whole up to now) can be written so: a part of a month would
   * replace the month.
   */
  focusLayout?: FocusLayout | undefined;
  signal?: AbortSignal | undefined;
  /** When the reads must have ended (ms since the epoch); default: no limit but the signal. */
  deadline?: number | undefined;
  /** Told where a long read is, every few seconds. */
  progress?: ((text: string) => void) | undefined;
  /** Told of what the files leave out; default: a process warning (CwpWarning). */
  warn?: ((message: string) => void) | undefined;
  /** The clock the named periods are read against (ms); default now. */
  now?: number | undefined;
}

export interface CostReport {
  report: Report;
  /** The files written, by format. */
  files: Partial<Record<Format, string>>;
}

export async function writeCostReport(client: CwpClient, options: CostReportOptions): Promise<CostReport> {
  const o = checked(options);
  const now = o.now ?? Date.now();
  const period = resolvePeriod(o.period ?? "month-to-date", { start: o.start, end: o.end }, now);
  const granularity = o.granularity ?? "day";
  const groupBy = o.groupBy ?? "project";
  const top = o.top ?? 10;
  const partitioned = o.focusLayout === "partitioned";
  if (partitioned && !coversWholeBillingPeriods(period, now))
    throw new ReportOptionError(
      "focusLayout",
      `partitioned writes whole billing periods (UTC months), each replacing its folder: the period must start on a month's first day and end with a month, or now (month-to-date, last-month, year-to-date, last-12-months); ${period.label} is not`,
    );
  const files: Partial<Record<Format, string>> = {};
  for (const format of o.formats) files[format] = join(o.dir, FILE_NAMES[format]);
  if (partitioned && files["focus-parquet"] !== undefined)
    files["focus-parquet"] = join(o.dir, FOCUS_DATASET_FOLDER);
  const shape = {
    period,
    granularity,
    groupBy,
    top,
    budget: o.budget === undefined ? undefined : Decimal.from(o.budget),
    warnPercent: o.warnPercent ?? 80,
    now,
  };
  let report: Report;
  if (period.notYet !== undefined) {
    // No whole hour yet (a month to date in its first hour): nothing is read and no data file is
    // written (a FOCUS dataset's folder is left as it is: nothing replaces it); the report and its
    // JSON say why.
    for (const data of ["csv", "focus", "focus-parquet"] as const) delete files[data];
    const nothing = { rows: new Map(), total: Decimal.zero, byoc: false };
    const filters: Filters = { teamId: o.teamId, projectId: o.projectId, resourceType: o.resourceType };
    report = buildReport(
      {
        currency: "",
        scope: undefined,
        current: nothing,
        previous: undefined,
        trend: [],
        credit: undefined,
        clusters: undefined,
        requests: 0,
      },
      { ...shape, filters, budget: undefined },
    );
  } else {
    // The project's uid is read only once every option is known good: a refused option sends nothing.
    const call = {
      signal: o.signal ?? new AbortController().signal,
      deadline: o.deadline ?? Number.POSITIVE_INFINITY,
    };
    const projectId = o.project === undefined ? o.projectId : await projectUid(client, o.project, call);
    const filters: Filters = { teamId: o.teamId, projectId, resourceType: o.resourceType };
    const collected = await readReport(client, {
      period,
      granularity,
      groupBy,
      filters,
      compare: o.compare ?? true,
      top,
      csvPath: files.csv,
      focusPath: files.focus,
      focusParquetPath: files["focus-parquet"],
      focusPartitions: partitioned ? billingPeriodStarts(period) : undefined,
      billingAccountName: o.billingAccountName,
      ...call,
      progress: o.progress ?? (() => {}),
      warn: o.warn ?? emitCwpWarning,
    });
    report = buildReport(collected, { ...shape, filters });
  }
  const whole: Array<[string | undefined, () => string]> = [
    [files.markdown, () => renderMarkdown(report, 2)],
    [files.json, () => renderJson(report)],
  ];
  for (const [path, render] of whole) {
    if (path === undefined) continue;
    const out = LineFile.open(path);
    await out.write(render());
    await out.close();
  }
  return { report, files };
}

/** The text options' rules, which the usage-report action's inputs use too: one value, one answer. */
export const TEXT_RULES = {
  budget: {
    pattern: /^\d+(\.\d+)?$/,
    message: "must be an amount such as 2500 or 1999.99 (the account's currency)",
  },
  billingAccountName: {
    pattern: /^[^\p{Cc}]{1,200}$/u,
    message: "must be one line of 1 to 200 characters, without control characters",
  },
} as const;

const oneOf = (option: string, value: unknown, allowed: readonly string[]) => {
  if (value !== undefined && !allowed.includes(value as string))
    throw new ReportOptionError(option, `must be one of ${allowed.join(", ")}`);
};

/** The options as a script may get them wrong: refused before anything is read, naming the option. */
function checked(o: CostReportOptions): CostReportOptions {
  oneOf("period", o.period, PERIODS);
  oneOf("granularity", o.granularity, GRANULARITIES);
  oneOf("groupBy", o.groupBy, GROUP_BYS);
  oneOf("resourceType", o.resourceType, RESOURCE_TYPES);
  for (const format of o.formats) oneOf("formats", format, FORMATS);
  oneOf("focusLayout", o.focusLayout, FOCUS_LAYOUTS);
  if (o.focusLayout === "partitioned" && !o.formats.includes("focus-parquet"))
    throw new ReportOptionError(
      "focusLayout",
      "partitioned is a layout of focus-parquet: add focus-parquet to formats",
    );
  if (o.top !== undefined && !(Number.isInteger(o.top) && o.top >= 1))
    throw new ReportOptionError("top", "must be a whole number, 1 or more");
  if (o.warnPercent !== undefined && !(Number.isInteger(o.warnPercent) && o.warnPercent >= 0))
    throw new ReportOptionError("warnPercent", "must be a whole number of percent, 0 or more");
  for (const option of ["budget", "billingAccountName"] as const) {
    const value = o[option];
    if (value !== undefined && !TEXT_RULES[option].pattern.test(value))
      throw new ReportOptionError(option, TEXT_RULES[option].message);
  }
  if (o.project !== undefined && o.projectId !== undefined)
    throw new ReportOptionError("project", "give the project by its id or by projectId (its uid), not both");
  if (o.project !== undefined && (typeof o.project !== "string" || o.project.trim() === ""))
    throw new ReportOptionError("project", "must be a project's id or uid");
  if (typeof o.dir !== "string" || o.dir === "") throw new ReportOptionError("dir", "must be a directory");
  // A time that is no time would make every period and every wait's end a nonsense date.
  for (const option of ["now", "deadline"] as const) {
    const value = o[option];
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value >= 0))
      throw new ReportOptionError(option, "must be a time in milliseconds since the epoch (a finite number)");
  }
  return o;
}
