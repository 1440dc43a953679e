import { join } from "node:path";
import {
  defineAction,
  eventPayload,
  OUTPUT,
  outputDir,
  runAction,
  say,
  warn,
  workflowRepository,
} from "@cwp/action-kit";
import { gitHubClient } from "@cwp/action-kit/github";
import { Decimal, formatMoney } from "./decimal.js";
import { commentFailure, upsertIssue, upsertPullRequestComment } from "./github/comment.js";
import type { GroupBy } from "./group.js";
import { checkCommentInputs, type Format, pullRequestNumber, usageReportInputs } from "./inputs.js";
import { resolvePeriod } from "./period.js";
import { readReport } from "./read-report.js";
import { renderJson } from "./render/json.js";
import { LineFile } from "./render/line-file.js";
import { fitMarkdown, renderMarkdown } from "./render/markdown.js";
import { buildReport } from "./report.js";

/** GitHub's limits: 1 MiB per job summary (bytes), 65,536 characters per comment. */
const SUMMARY_LIMIT_BYTES = 1024 * 1024 - 1024;
const COMMENT_LIMIT_CHARS = 65_536;

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
  },
  async start({ config, client, signal, deadline }) {
    const now = Date.now();
    const period = resolvePeriod(
      config.period ?? "month-to-date",
      { start: config.start, end: config.end },
      now,
    );
    const pullNumber = config.comment === "pr" ? pullRequestNumber(eventPayload()) : undefined;
    const groupBy = (config["group-by"] ?? "project") as GroupBy;
    const granularity = config.granularity ?? "day";
    const filters = {
      teamId: config["team-uid"],
      projectId: config["project-uid"],
      resourceType: config["resource-type"],
    };
    const top = config.top ?? 10;
    const dir = config["output-dir"] ?? join(process.env.RUNNER_TEMP ?? ".", "cwp-usage-report");
    await outputDir(dir, "output-dir");
    const wants = (format: Format) => config.formats.includes(format);
    const collected = await readReport(client, {
      period,
      granularity,
      groupBy,
      filters,
      compare: config.compare,
      top,
      csvPath: wants("csv") ? join(dir, "report.csv") : undefined,
      focusPath: wants("focus") ? join(dir, "focus.csv") : undefined,
      focusParquetPath: wants("focus-parquet") ? join(dir, "focus.parquet") : undefined,
      signal,
      deadline: now + config.timeout,
      progress: say,
    });
    const report = buildReport(collected, {
      period,
      granularity,
      groupBy,
      filters,
      top,
      budget: config.budget ? Decimal.from(config.budget) : undefined,
      warnPercent: config["budget-warn-percent"] ?? 80,
      now,
    });
    const whole: Array<[Format, string, () => string]> = [
      ["markdown", "report.md", () => renderMarkdown(report, 2)],
      ["json", "report.json", () => renderJson(report)],
    ];
    for (const [format, name, render] of whole) {
      if (!wants(format)) continue;
      const out = LineFile.open(join(dir, name));
      await out.write(render());
      await out.close();
    }

    const summary = fitMarkdown(report, SUMMARY_LIMIT_BYTES, (t) => Buffer.byteLength(t));
    let commentFailed: string | undefined;
    // The repository was checked with the inputs (checkCommentInputs).
    const repository = workflowRepository();
    if (config.comment !== "none" && config["github-token"] && repository) {
      const target = {
        github: gitHubClient(config["github-token"]),
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
    if (report.budget?.state === "warning")
      warn(
        `Spent ${report.budget.usedPercent?.toFixed(1)}% of the budget of ${formatMoney(report.budget.amount, report.currency)}.`,
      );
    const message = over
      ? `Spent ${formatMoney(report.total, report.currency)}, over the budget of ${formatMoney(report.budget?.amount ?? Decimal.zero, report.currency)} (${report.budget?.usedPercent?.toFixed(1)}%).`
      : `Spent ${formatMoney(report.total, report.currency)} in ${period.label}; the report is in ${dir} (${report.requests} requests).`;
    if (over && !config["fail-on-budget-exceeded"]) warn(message);
    return {
      finished: true,
      title: `cost report for ${period.label}`,
      rows: [],
      summary,
      outputs: {
        total: report.total.toFixed(2),
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
