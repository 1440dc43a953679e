import {
  booleanInput,
  choiceInput,
  host,
  InputError,
  integerInput,
  optionalText,
  pullRequestOf,
  workflowRepository,
} from "@cwp/action-kit";
import { RESOURCE_TYPES, UID_PATTERN } from "@cwp/client";
import {
  FOCUS_LAYOUTS,
  FORMATS,
  type Format,
  GRANULARITIES,
  GROUP_BYS,
  PERIODS,
  TEXT_RULES,
} from "@cwp/cost-report";
import { z } from "zod";

// The inputs of usage-report, parsed once.

/**
 * What a report writes unless told: files that grow with the groups and periods shown. The FOCUS
 * dataset (focus.csv, focus.parquet) has a row per resource, price component and period, so it
 * grows with the organisation (focus.csv: 4 GB for a year by day of 20,000 resources, more than a
 * hosted runner's free disk by the hour at 50,000): written only when asked for.
 */
const DEFAULT_FORMATS: readonly Format[] = ["markdown", "csv", "json"];

const uidInput = () =>
  optionalText().pipe(z.string().regex(UID_PATTERN, "must be a 24-character hexadecimal uid").optional());

/** A list of formats, separated by commas, spaces or new lines. */
const formatsInput = () =>
  z.string().transform((s, ctx) => {
    const items = s.split(/[\s,]+/).filter(Boolean);
    const bad = items.filter((f) => !(FORMATS as readonly string[]).includes(f));
    if (bad.length > 0) {
      ctx.addIssue({ code: "custom", message: `must be any of ${FORMATS.join(", ")}` });
      return z.NEVER;
    }
    return [...new Set(items.length > 0 ? items : DEFAULT_FORMATS)] as Format[];
  });

const amountInput = () =>
  optionalText().pipe(z.string().regex(TEXT_RULES.budget.pattern, TEXT_RULES.budget.message).optional());

export const usageReportInputs = {
  period: choiceInput(PERIODS, "month-to-date"),
  start: optionalText(),
  end: optionalText(),
  granularity: choiceInput(GRANULARITIES, "day"),
  "team-uid": uidInput(),
  "project-id": optionalText(),
  "project-uid": uidInput(),
  "resource-type": choiceInput(RESOURCE_TYPES),
  "group-by": choiceInput(GROUP_BYS, "project"),
  top: integerInput(10),
  budget: amountInput(),
  "budget-warn-percent": integerInput(80),
  "fail-on-budget-exceeded": booleanInput(false),
  compare: booleanInput(true),
  "output-dir": optionalText(),
  formats: formatsInput(),
  "focus-layout": choiceInput(FOCUS_LAYOUTS, "file"),
  "billing-account-name": optionalText().pipe(
    z.string().regex(TEXT_RULES.billingAccountName.pattern, TEXT_RULES.billingAccountName.message).optional(),
  ),
  comment: choiceInput(["none", "pr", "issue"], "none"),
  "github-token": optionalText(),
  "issue-title": optionalText(),
  "issue-label": optionalText(),
};

/**
 * A comment goes to a GitHub repository with a token: both known before anything is read, or the
 * report would be made only to fail at the end. A runner always names its repository; a terminal
 * (the CLI) names it only when told.
 */
export function checkCommentInputs(config: {
  comment?: string | undefined;
  "github-token"?: string | undefined;
}): void {
  if (!config.comment || config.comment === "none") return;
  if (!workflowRepository()) {
    const repository = process.env.GITHUB_REPOSITORY ?? "";
    throw new InputError(
      "comment",
      `needs the GitHub repository to post to (the GITHUB_REPOSITORY environment variable, owner/name, which every runner sets); it is ${repository ? `"${repository}"` : "not set"}`,
    );
  }
  if (!config["github-token"])
    throw new InputError(
      "github-token",
      `is required to comment (${host().inputSetting("comment", config.comment)}): a token that may write ${config.comment === "pr" ? "pull requests" : "issues"}, such as the workflow's \${{ github.token }}`,
    );
}

/** The pull request of a pull_request event, for `comment: pr`. */
export function pullRequestNumber(event: Record<string, unknown>): number {
  const { number } = pullRequestOf(event);
  if (number === undefined)
    throw new InputError("comment", "pr needs a pull_request event; use issue for scheduled runs");
  return number;
}
