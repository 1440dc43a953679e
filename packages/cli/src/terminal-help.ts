import type { ActionMetadata, InputSpec } from "./operations.js";

// The action.yml texts speak to a workflow's author (the step, the workflow's cancel, RUNNER_TEMP);
// a terminal's user reads these instead: what Ctrl-C does, where files go, what ends cwp with an
// error. Each operation's example runs as written against `cwp emulator`'s world.

/** Wording of a runner, and a terminal's for it, in every input's help. */
const TERMINAL_WORDS: Array<[RegExp, string]> = [
  [
    /when the workflow is cancelled or the timeout passes/g,
    "on Ctrl-C (SIGINT), SIGTERM or when --timeout passes",
  ],
  [/a cancel or timeout fails the step and says/g, "Ctrl-C, SIGTERM or --timeout ends cwp, saying"],
  [/^Fail the step when/, "Exit with code 1 when"],
  // "(comment: issue)", a workflow's `with:` setting, is a flag here.
  [/\(([a-z][a-z-]*): ([a-z]+)\)/g, "(with --$1 $2)"],
];

/** Inputs whose help says something else in a terminal. */
const TERMINAL_INPUTS: Record<string, Record<string, string>> = {
  "fetch-logs": {
    "output-file":
      "Where to write the lines. Default: a new file cwp-logs-<time>.log in the current directory.",
    print: "Print the lines on the terminal too (their control characters and escapes shown inert).",
  },
  "usage-report": {
    "output-dir": "Where to write the report files. Default: ./cwp-usage-report.",
    "github-token": "Token for the comment (pull requests or issues write); only with --comment.",
  },
  "trigger-build": {
    branch:
      "Branch to build (its latest commit unless --sha is set). One of --branch, --pull-request-id or --sha is required, except in a GitHub workflow, where they come from its event.",
  },
};

/** What an operation does, in a terminal's words, where the action's description is not. */
const TERMINAL_DESCRIPTIONS: Record<string, string> = {
  "usage-report":
    "Report what was spent on the Cloud Workload Platform, where, against the previous period and a budget: a table here, files, and optionally a pull request or issue comment.",
};

/** A command that works as written once `cwp emulator` runs and its exports are pasted. */
export const EXAMPLES: Record<string, string> = {
  "trigger-build": "cwp trigger-build --project-id platform-web --service-id web --branch main",
  "run-job": "cwp run-job --project-id platform-web --job-id migrate --timeout 30m",
  "run-template": "cwp run-template --template-id release --arguments 'version: 1.4.0'",
  "upgrade-addon": "cwp upgrade-addon --project-id platform-web --addon-id db --version 17.0",
  "restore-backup": "cwp restore-backup --project-id platform-web --addon-id db --backup-id db-live-1",
  "restart-service": "cwp restart-service --project-id platform-web --service-id web",
  "fetch-logs":
    "cwp fetch-logs --project-id platform-web --service-id web --duration 15m --output-file web.log",
  "usage-report":
    "cwp usage-report --period last-month --group-by project --formats markdown,csv --output-dir report",
};

/**
 * Whether an input does nothing for this operation: "Not used: ..." inputs exist so every action
 * takes the shared inputs (fetch-logs' `wait`), and a flag for one would do nothing.
 */
export const doesNothing = (spec: InputSpec | undefined) => spec?.description.startsWith("Not used") ?? false;

/** An input's help as a terminal shows it; undefined for an input that does nothing there. */
export function terminalInputHelp(operation: string, input: string, spec: InputSpec): string | undefined {
  if (doesNothing(spec)) return undefined;
  const own = TERMINAL_INPUTS[operation]?.[input];
  if (own !== undefined) return own;
  return TERMINAL_WORDS.reduce(
    (text, [runner, terminal]) => text.replace(runner, terminal),
    spec.description,
  );
}

export function terminalDescription(operation: string, metadata: ActionMetadata): string {
  return TERMINAL_DESCRIPTIONS[operation] ?? metadata.description;
}

/** The help's closing lines: a working example and what the exit codes mean. */
export function exampleHelp(
  operation: string,
  metadata: ActionMetadata,
  exitCodes: Record<string, number>,
): string {
  const example = EXAMPLES[operation];
  if (example === undefined) throw new Error(`no example for ${operation}`);
  const codes = Object.entries(exitCodes)
    .map(([kind, code]) => `${code} ${kind}`)
    .join(", ");
  return [
    "",
    "Example (against `cwp emulator`, after pasting the exports it prints):",
    `  ${example}`,
    "",
    "CWP_API_TOKEN and CWP_API_URL stand in for --api-token and --api-url.",
    doesNothing(metadata.inputs["abort-on-cancel"])
      ? "Ctrl-C (SIGINT) or SIGTERM stops it; nothing on the platform is changed."
      : "Ctrl-C (SIGINT) or SIGTERM stops the wait; --abort-on-cancel says what happens to the work.",
    `Exit codes: ${codes}.`,
  ].join("\n");
}
