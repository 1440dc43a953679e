import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { defineAction, eventPayload, runAction, warn } from "@cwp/action-kit";
import { collect, type GroupBy } from "./collect.js";
import { Decimal, formatMoney } from "./decimal.js";
import { upsertIssue, upsertPullRequestComment } from "./github/comment.js";
import { checkCommentInputs, pullRequestNumber, usageReportInputs } from "./inputs.js";
import { resolvePeriod } from "./period.js";
import { renderCsv } from "./render/csv.js";
import { renderFocus } from "./render/focus.js";
import { renderJson } from "./render/json.js";
import { fitMarkdown, renderMarkdown } from "./render/markdown.js";
import { buildReport } from "./report.js";

/** GitHub's limits: 1 MiB per job summary (bytes), 65,536 characters per comment. */
const SUMMARY_LIMIT_BYTES = 1024 * 1024 - 1024;
const COMMENT_LIMIT_CHARS = 65_536;

/** Writes lines to a file as they come, waiting when the disk is behind. */
async function writeLines(file: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(file, { encoding: "utf8" });
  for (const line of lines) if (!out.write(line)) await once(out, "drain");
  out.end();
  await once(out, "finish");
}

export const definition = defineAction({
  name: "usage-report",
  inputs: usageReportInputs,
  outputs: {
    total: "",
    currency: "",
    "previous-total": "",
    "change-percent": "",
    "budget-used-percent": "",
    "over-budget": "false",
    "report-dir": "",
  },
  validate(config) {
    checkCommentInputs(config);
  },
  async start({ config, client, signal }) {
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
    const data = await collect(client, {
      period,
      granularity,
      filters,
      compare: config.compare,
      groupBy,
      signal,
      deadline: now + config.timeout,
    });
    const report = buildReport(data, {
      period,
      granularity,
      groupBy,
      filters,
      top: config.top ?? 10,
      budget: config.budget ? Decimal.from(config.budget) : undefined,
      warnPercent: config["budget-warn-percent"] ?? 80,
      now,
    });
    const dir = config["output-dir"] ?? join(process.env.RUNNER_TEMP ?? ".", "cwp-usage-report");
    await mkdir(dir, { recursive: true });
    const files: Record<string, () => Iterable<string>> = {
      markdown: () => [renderMarkdown(report, 2)],
      csv: () => renderCsv(report),
      json: () => [renderJson(report)],
      focus: () =>
        renderFocus(data.trend, {
          currency: report.currency,
          accountId: String(report.scope?.teamId ?? "billing-customer"),
          names: data.names,
        }),
    };
    const names = {
      markdown: "report.md",
      csv: "report.csv",
      json: "report.json",
      focus: "focus.csv",
    } as const;
    for (const format of config.formats) await writeLines(join(dir, names[format]), files[format]?.() ?? []);

    const summary = fitMarkdown(report, SUMMARY_LIMIT_BYTES, (t) => Buffer.byteLength(t));
    if (config.comment !== "none" && config["github-token"]) {
      const target = {
        token: config["github-token"],
        apiUrl: process.env.GITHUB_API_URL ?? "https://api.github.com",
        repository: process.env.GITHUB_REPOSITORY ?? "",
      };
      const body = fitMarkdown(report, COMMENT_LIMIT_CHARS, (t) => t.length);
      if (pullNumber !== undefined) await upsertPullRequestComment(target, pullNumber, body);
      else
        await upsertIssue(
          target,
          config["issue-title"] ?? "Cloud Workload Platform cost report",
          config["issue-label"] ?? "cost-report",
          body,
        );
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
      success: !(over && config["fail-on-budget-exceeded"]),
      message,
    };
  },
});

export const run = () => runAction(definition);
