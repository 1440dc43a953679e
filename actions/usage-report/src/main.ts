import { join } from "node:path";
import {
  defineAction,
  eventPayload,
  host,
  InputError,
  OUTPUT,
  outputDir,
  runAction,
  StepFailure,
  say,
  warn,
  workflowRepository,
} from "@cwp/action-kit";
import { loadGitHubClient } from "@cwp/action-kit/github";
import { IncompleteListError } from "@cwp/client";
import {
  Decimal,
  fitMarkdown,
  formatMoney,
  ReportDataError,
  ReportOptionError,
  renderText,
  writeCostReport,
} from "@cwp/cost-report";
import { commentFailure, upsertIssue, upsertPullRequestComment } from "./github/comment.js";
import { checkCommentInputs, pullRequestNumber, usageReportInputs } from "./inputs.js";

/** GitHub's limits: 1 MiB per job summary (bytes), 65,536 characters per comment. */
const SUMMARY_LIMIT_BYTES = 1024 * 1024 - 1024;
const COMMENT_LIMIT_CHARS = 65_536;

/** The engine's options that this action's inputs name otherwise. */
const INPUT_OF_OPTION: Record<string, string> = {
  groupBy: "group-by",
  teamId: "team-uid",
  project: "project-id",
  projectId: "project-uid",
  resourceType: "resource-type",
  warnPercent: "budget-warn-percent",
  dir: "output-dir",
  billingAccountName: "billing-account-name",
  focusLayout: "focus-layout",
};

export const definition = defineAction({
  name: "usage-report",
  inputs: usageReportInputs,
  outputs: {
    total: OUTPUT.number,
    currency: OUTPUT.currency,
    "previous-total": OUTPUT.number,
    "change-percent": OUTPUT.number,
    "budget-used-percent": OUTPUT.number,
    "over-budget": OUTPUT.flag,
    "report-dir": OUTPUT.ours,
  },
  validate(config) {
    checkCommentInputs(config);
    if (config["project-id"] !== undefined && config["project-uid"] !== undefined)
      throw new InputError(
        "project-id",
        "give project-id or project-uid, not both (project-id takes a uid too)",
      );
  },
  async start({ config, client, clock, signal, deadline }) {
    const now = clock.now();
    const pullNumber = config.comment === "pr" ? pullRequestNumber(eventPayload()) : undefined;
    const dir = config["output-dir"] ?? join(host().filesDir(), "cwp-usage-report");
    await outputDir(dir, "output-dir");
    const { report } = await writeCostReport(client, {
      period: config.period,
      start: config.start,
      end: config.end,
      granularity: config.granularity,
      groupBy: config["group-by"],
      teamId: config["team-uid"],
      project: config["project-id"],
      projectId: config["project-uid"],
      resourceType: config["resource-type"],
      top: config.top,
      compare: config.compare,
      budget: config.budget,
      warnPercent: config["budget-warn-percent"],
      dir,
      formats: config.formats,
      billingAccountName: config["billing-account-name"],
      focusLayout: config["focus-layout"],
      signal,
      deadline,
      progress: say,
      warn,
      now,
    }).catch((error: unknown) => {
      if (error instanceof ReportOptionError)
        throw new InputError(INPUT_OF_OPTION[error.option] ?? error.option, error.reason);
      if (error instanceof ReportDataError || error instanceof IncompleteListError)
        throw new StepFailure(error.message);
      throw error;
    });
    const period = report.period;

    const summary = fitMarkdown(report, SUMMARY_LIMIT_BYTES, (t) => Buffer.byteLength(t));
    let commentFailed: string | undefined;
    // The repository was checked with the inputs (checkCommentInputs).
    const repository = workflowRepository();
    if (config.comment !== "none" && config["github-token"] && repository) {
      const target = {
        github: await loadGitHubClient(config["github-token"]),
        repository,
        budget: { signal, deadline },
      };
      const body = fitMarkdown(report, COMMENT_LIMIT_CHARS, (t) => t.length);
      try {
        if (pullNumber !== undefined) await upsertPullRequestComment(target, pullNumber, body);
        else
          await upsertIssue(
            target,
            config["issue-title"] ?? "Cloud Workload Platform cost report",
            config["issue-label"] ?? "cost-report",
            body,
          );
      } catch (error) {
        commentFailed = commentFailure(error, pullNumber !== undefined ? "pr" : "issue");
      }
    }

    const over = report.budget?.state === "over";
    // FOCUS requires the billing account's name; only a team billed through its organisation
    // has one the API gives (the team's).
    const focusAsked = config.formats.some((f) => f === "focus" || f === "focus-parquet");
    if (focusAsked && !config["billing-account-name"] && !report.scope)
      warn(
        `The FOCUS dataset's BillingAccountName is empty: FOCUS requires the billing account's name, and the API names no organisation or billing customer. Name it with ${host().inputSetting("billing-account-name", "<name>")}.`,
      );
    if (report.budget?.state === "warning")
      warn(
        `Spent ${report.budget.usedPercent?.toFixed(1)}% of the budget of ${formatMoney(report.budget.amount, report.currency)}.`,
      );
    const spent =
      period.notYet !== undefined
        ? `Nothing to report for ${period.label} yet. ${period.notYet}`
        : over
          ? `Spent ${formatMoney(report.total, report.currency)} in ${period.label}, over the budget of ${formatMoney(report.budget?.amount ?? Decimal.zero, report.currency)} (${report.budget?.usedPercent?.toFixed(1)}%)`
          : `Spent ${formatMoney(report.total, report.currency)} in ${period.label}`;
    // Where the files went, whatever the outcome: over budget is when they are read.
    const message = `${spent}; the report is in ${dir} (${report.requests} requests).`;
    if (over && !config["fail-on-budget-exceeded"]) warn(message);
    return {
      finished: true,
      title: `cost report for ${period.label}`,
      rows: [],
      summary: { markdown: summary, text: renderText(report) },
      outputs: {
        // No whole hour yet: no total, rather than a 0 that reads as nothing spent.
        total: period.notYet !== undefined ? undefined : report.total.toFixed(2),
        currency: report.currency,
        "previous-total": report.previousTotal?.toFixed(2),
        "change-percent": report.changePercent?.toFixed(1),
        "budget-used-percent": report.budget?.usedPercent?.toFixed(1),
        "over-budget": over,
        "report-dir": dir,
      },
      success: !(over && config["fail-on-budget-exceeded"]) && commentFailed === undefined,
      message: commentFailed ? `${message}\n${commentFailed}` : message,
    };
  },
});

export const run = () => runAction(definition);
