import type { Clock } from "@cwp/client";
import { redact } from "./secrets.js";

// Where an action's engine speaks: the GitHub runner (annotations, groups, masking, job summary,
// step outputs) or a terminal (status lines, a progress line, a table, JSON). The engine never
// speaks to either directly, so the same start, wait and abort logic serves the actions and the CLI.

/** How a step that did not succeed ended; the CLI turns each into its own exit code. */
export type FailureKind =
  /** The work concluded unsuccessfully, or a request was refused. */
  | "failed"
  /** An input was wrong: nothing was sent. */
  | "input"
  /** `timeout` passed before the work concluded. */
  | "timeout"
  /** A start whose answer never came (or could not be read): the work may have started. */
  | "unknown"
  /** Cancelled (SIGINT/SIGTERM), after aborting the remote work where asked. */
  | "cancelled";

/** An output as the step set it: its text (what a runner's output holds) and its type. */
export interface Output {
  text: string;
  type: "boolean" | "number" | "string";
}

/** An output's value as a terminal's JSON types it: `null` for a value the step does not have. */
export type OutputValue = string | number | boolean | null;

export const typedOutput = ({ text, type }: Output): OutputValue =>
  type === "boolean" ? text === "true" : text === "" ? null : type === "number" ? Number(text) : text;

/** A remote log line: its text (untrusted), and its timestamp where the host may show it. */
export interface LogRecord {
  ts?: string;
  text: string;
}

/** What the job summary (or the terminal's closing table) shows. */
/** A failure the step explains in full: its message is told as it is, never as unexpected. */
export class StepFailure extends Error {
  override name = "StepFailure";
}

/** A row of the summary: a label, its value, and where the value links to (a URL the user gave). */
export type SummaryRow = [label: string, value: string | undefined, link?: string | undefined];

export interface Report {
  action: string;
  /** What ran, e.g. "build joyous-view-6290 of service web". */
  title: string;
  outcome: "success" | "failure" | "started" | "cancelled" | "timed out";
  status?: string | undefined;
  rows: SummaryRow[];
  durationMs?: number | undefined;
  message?: string | undefined;
  /** The last remote log lines, shown for a failure. */
  lastLines?: readonly string[] | undefined;
}

export interface Host {
  /**
   * The time the work is timed and waited on (its `timeout`, polls, log ranges, durations): this
   * machine's on a runner; a step `cwp rehearse` runs counts the platform's (the emulator's, sped up).
   * What the runner counts (the time left after a cancel) is this machine's, always.
   */
  readonly clock: Clock;
  /**
   * Called once the inputs are valid, before the first request: a host that counts a platform's
   * own time asks for it here (a terminal asks an emulator on this machine where its clock stands),
   * so that bad input sends nothing at all. `clock` is read after it.
   */
  readClock?(apiUrl: string): Promise<void>;
  /** One status line. Its text may hold remote strings; the host keeps them inert. */
  info(line: string): void;
  /** A line only for someone debugging the step. */
  debug(line: string): void;
  /** Where a wait stands, on every poll (a terminal redraws one line; a runner's log ignores it). */
  progress(line: string): void;
  warn(message: string): void;
  /** The step ends unsuccessfully, for this reason. */
  fail(message: string, kind: FailureKind): void;
  /** How an input is named to the user: `Input "version"` on a runner, `--version` in a terminal. */
  inputName(input: string): string;
  /** How to give an input a value, in advice: `force: true` on a runner, `--force true` in a terminal. */
  inputSetting(input: string, value: string): string;
  /** What cancels, after "Cancelled": "with the workflow" on a runner, the signal in a terminal. */
  readonly cancelledBy: string;
  /** Where files go that the user gave no path for: the runner's temp folder, a terminal's cwd. */
  filesDir(): string;
  /** Remote log lines of `title` (untrusted text: the host prints it so it can never act). */
  logLines(title: string, lines: readonly LogRecord[]): void;
  /** No more log lines of the last title. */
  endLogs(): void;
  /** Step outputs, all at once or a few at a time. */
  outputs(values: Record<string, Output>): void;
  report(report: Report): Promise<void>;
  /** A report an action rendered itself, instead of the standard one. */
  rawReport(report: OwnReport): Promise<void>;
}

/**
 * A report an action renders itself, for each kind of host: Markdown for a job summary (GitHub
 * draws it), text for a terminal (which would show Markdown's source).
 */
export interface OwnReport {
  markdown: string;
  text: string;
}

let current: Host | undefined;

/** The host everything after this speaks to (set once by the runner of an action). */
export function useHost(host: Host): void {
  current = host;
}

export function host(): Host {
  if (!current) throw new Error("no host: run actions through runAction (GitHub) or the cwp CLI");
  return current;
}

/** A status line, masked values redacted. */
export const say = (line: string) => host().info(redact(line));
/** A debugging line, masked values redacted. */
export const debug = (line: string) => host().debug(redact(line));
/** A warning, masked values redacted. */
export const warn = (message: string) => host().warn(redact(message));
/** Ends the step unsuccessfully, masked values redacted. */
export const failWith = (message: string, kind: FailureKind = "failed") => host().fail(redact(message), kind);
