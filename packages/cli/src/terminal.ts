import { appendFile } from "node:fs/promises";
import {
  emulatorTime,
  type FailureKind,
  type Host,
  type LogRecord,
  type Output,
  type OutputValue,
  type OwnReport,
  type Report,
  redact,
  typedOutput,
} from "@cwp/action-kit/engine";
import { renderSummary } from "@cwp/action-kit/summary";
import { type Clock, spedUpClock, systemClock } from "@cwp/client";
import { type Paint, painterFor, takesEscapes } from "./colour.js";
import { EXIT_CODES } from "./exit-codes.js";

// A terminal (or another CI system's log) as the engine's host: status lines, a live progress
// line on a TTY, logs with their timestamps, and the report as a table at the end; with --json,
// stdout carries one JSON object (the outputs, typed) and everything else goes to stderr. Colours
// only on a TTY and without NO_COLOR. A terminal masks nothing itself (a runner does): every line
// and every JSON value written has each masked value redacted here, whatever wrote it.

type Stream = NodeJS.WritableStream & { isTTY?: boolean };

/**
 * Remote text for a terminal: control characters (escape sequences that could move the cursor or
 * rewrite the screen) shown as `�`, line breaks as ` ⏎ ` where one line is meant.
 */
export const safeText = (text: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is replaced.
  text.replace(/\r\n|\r|\n/g, " ⏎ ").replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "�");

/** An SGR sequence (`ESC [ params m`): colour and weight, nothing that moves or clears. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what is matched.
const SGR = /\x1b\[[0-9;:]*m/g;

/**
 * A line a tool printed (a step's output: prettier, jest, eslint colour theirs under CI=true), for
 * a terminal: its colour (SGR sequences) kept where `colour` (a TTY without NO_COLOR), with a reset
 * at its end so that it never bleeds into the next line, else dropped; every other control
 * character inert, as `safeText` makes it (a cursor move, a screen clear, an OSC title or link).
 */
export function toolText(text: string, colour: boolean): string {
  const codes = text.match(SGR) ?? [];
  const parts = text.split(SGR).map(safeText);
  if (!colour || codes.length === 0) return parts.join("");
  return `${parts.map((part, i) => part + (codes[i] ?? "")).join("")}\x1b[0m`;
}

const MARK = { success: "✔", failure: "✘", started: "▶", cancelled: "■", "timed out": "⌛" } as const;

/**
 * Outside a terminal (another CI system's log, a file), a wait says where it stands at least this
 * often: CI systems kill a job that prints nothing for 10 minutes, and a person cannot tell busy
 * from hung. A wait polls at least every 10 s, so its next poll after this much silence is a line
 * within 60 s.
 */
export const HEARTBEAT_MS = 50_000;
/**
 * How often, outside a terminal, a wait's silence is looked at, whatever its polls do (a long
 * history puts them minutes apart): with HEARTBEAT_MS, a line at least every 60 s.
 */
export const HEARTBEAT_CHECK_MS = 10_000;

export interface TerminalOptions {
  json: boolean;
  stdout?: Stream;
  stderr?: Stream;
  env?: NodeJS.ProcessEnv;
  /**
   * The time the work counts (`Host.clock`), the heartbeat's too: this machine's, or for a step
   * `cwp rehearse` runs the platform's (tests give their own).
   */
  clock?: Clock;
  /**
   * Without a clock given: whether to count the time of an emulator at the API URL on this machine
   * (`cwp-emulator --speed 60`), asked once the inputs are valid (`readClock`). A real platform's
   * is this machine's.
   */
  emulatorClock?: boolean;
  /**
   * How inputs are named: as flags (`--template-id`, default), or as the action names them
   * (`template-id`), for a step `cwp rehearse` runs from a workflow's `with:`.
   */
  inputsAs?: "flags" | "inputs";
  /** Where files go that the work names no place for (default: where the person is, "."). */
  filesDir?: string;
  /**
   * Where a step `cwp rehearse` runs writes the Markdown the action writes to its job summary on a
   * runner (GITHUB_STEP_SUMMARY), so the rehearsal's job summary has it as GitHub's would.
   */
  summaryFile?: string;
}

export class TerminalHost implements Host {
  /** How the run ended, if not well. */
  failure: { kind: FailureKind; message: string } | undefined;
  readonly outputValues: Record<string, OutputValue> = {};
  readonly #json: boolean;
  readonly #out: Stream;
  readonly #err: Stream;
  readonly #paint: Paint;
  /**
   * A live progress line, redrawn in place (escape codes that erase it): on a terminal that takes
   * colour only. Under NO_COLOR or TERM=dumb no escape code is written, so waits say where they
   * stand as lines, as in a log.
   */
  readonly #live: boolean;
  #progress = false;
  #logTitle: string | undefined;
  clock: Clock;
  readonly #emulatorClock: boolean;
  /** When a line was last written (progress on a TTY is no line). */
  #lastLineAt: number;
  /** Outside a terminal: the wait's last status line, and the timer that repeats it after a silence. */
  #lastProgress: string | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  readonly #inputsAs: "flags" | "inputs";
  readonly #filesDir: string;
  readonly #summaryFile: string | undefined;

  constructor(options: TerminalOptions) {
    this.#json = options.json;
    this.#err = options.stderr ?? process.stderr;
    // With --json, stdout is the JSON's alone.
    this.#out = options.json ? this.#err : (options.stdout ?? process.stdout);
    const env = options.env ?? process.env;
    this.#paint = painterFor(this.#out, env);
    this.#live = takesEscapes(this.#out, env);
    this.clock = options.clock ?? systemClock;
    this.#emulatorClock = options.clock === undefined && options.emulatorClock === true;
    this.#inputsAs = options.inputsAs ?? "flags";
    this.#filesDir = options.filesDir ?? ".";
    this.#summaryFile = options.summaryFile;
    this.#lastLineAt = this.clock.now();
  }

  async readClock(apiUrl: string): Promise<void> {
    if (!this.#emulatorClock) return;
    const time = await emulatorTime(apiUrl);
    if (!time) return;
    this.clock = spedUpClock(time);
    this.#lastLineAt = this.clock.now();
  }

  #stopHeartbeat(): void {
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }

  #write(stream: Stream, line: string): void {
    if (this.#progress && this.#live) {
      this.#out.write("\r\x1b[2K");
      this.#progress = false;
    }
    stream.write(`${redact(line)}\n`);
    this.#lastLineAt = this.clock.now();
  }

  info(line: string): void {
    this.#write(this.#out, safeText(line));
  }

  debug(line: string): void {
    if (process.env.CWP_DEBUG) this.#write(this.#err, this.#paint("2", safeText(line)));
  }

  progress(line: string): void {
    if (!this.#live) {
      // A heartbeat: the wait's status and time so far, after a silence; between polls, a timer
      // says the wait goes on, with the last status.
      this.#lastProgress = safeText(line);
      if (this.clock.now() - this.#lastLineAt >= HEARTBEAT_MS) this.#write(this.#out, this.#lastProgress);
      this.#heartbeat ??= setInterval(() => {
        if (this.clock.now() - this.#lastLineAt >= HEARTBEAT_MS)
          this.#write(this.#out, `still waiting; last status ${this.#lastProgress}`);
      }, HEARTBEAT_CHECK_MS);
      this.#heartbeat.unref();
      return;
    }
    this.#out.write(`\r\x1b[2K${this.#paint("2", safeText(redact(line)))}`);
    this.#progress = true;
  }

  warn(message: string): void {
    this.#write(this.#err, `${this.#paint("33", "warning:")} ${safeText(message)}`);
  }

  fail(message: string, kind: FailureKind): void {
    this.failure = { kind, message };
    for (const line of message.split("\n"))
      this.#write(this.#err, `${this.#paint("31", "error:")} ${safeText(line)}`);
  }

  /** Inputs are flags here, or the workflow's `with:` keys for a rehearsed step. */
  inputName(input: string): string {
    return this.#inputsAs === "inputs" ? input : `--${input}`;
  }

  inputSetting(input: string, value: string): string {
    return this.#inputsAs === "inputs" ? `${input}: ${value}` : `--${input} ${value}`;
  }

  readonly cancelledBy = "by a signal (Ctrl-C or SIGTERM)";

  /**
   * Where the person is: the path is printed, and a file there is where they look first. A step
   * `cwp rehearse` runs puts them where the action would, in the runner's temporary folder.
   */
  filesDir(): string {
    return this.#filesDir;
  }

  logLines(title: string, lines: readonly LogRecord[]): void {
    if (this.#logTitle !== title) {
      this.#write(this.#out, this.#paint("1", `── ${safeText(title)}`));
      this.#logTitle = title;
    }
    for (const { ts, text } of lines) {
      const stamp = ts === undefined ? "" : `${this.#paint("2", safeText(ts))} `;
      for (const part of text.split(/\r\n|\r|\n/)) this.#write(this.#out, `  ${stamp}${safeText(part)}`);
    }
  }

  endLogs(): void {
    if (this.#logTitle !== undefined) this.#write(this.#out, this.#paint("1", "──"));
    this.#logTitle = undefined;
  }

  outputs(values: Record<string, Output>): void {
    for (const [name, output] of Object.entries(values)) this.outputValues[name] = typedOutput(output);
  }

  async report(report: Report): Promise<void> {
    // The work is over: nothing is waited for any more.
    this.#stopHeartbeat();
    const rows = [...report.rows, ["Status", report.status], ["Message", report.message]].filter(
      (row): row is [string, string] => row[1] !== undefined && row[1] !== "",
    );
    const width = Math.max(0, ...rows.map(([label]) => label.length));
    this.#write(
      this.#out,
      this.#paint(
        "1",
        `${MARK[report.outcome]} ${report.action}: ${safeText(report.title)} (${report.outcome})`,
      ),
    );
    for (const [label, value] of rows) this.#write(this.#out, `  ${label.padEnd(width)}  ${safeText(value)}`);
    if (report.lastLines && report.lastLines.length > 0) {
      this.#write(this.#out, `  Last ${report.lastLines.length} log lines:`);
      for (const line of report.lastLines) this.#write(this.#out, `    ${safeText(line)}`);
    }
    await this.#summary(renderSummary(report));
  }

  async #summary(markdown: string): Promise<void> {
    if (this.#summaryFile !== undefined) await appendFile(this.#summaryFile, `${markdown}\n`);
  }

  /** The text rendering: a terminal would show Markdown's source (`<details>`, a mermaid block). */
  async rawReport({ text, markdown }: OwnReport): Promise<void> {
    this.#stopHeartbeat();
    for (const line of text.split("\n")) this.#write(this.#out, safeText(line));
    await this.#summary(markdown);
  }

  /**
   * Ends the run's output: the progress line cleared; with --json, the outputs on stdout, and how
   * the run failed if it did (`error`).
   */
  finish(stdout: Stream = process.stdout): void {
    this.#stopHeartbeat();
    if (this.#progress && this.#live) this.#out.write("\r\x1b[2K");
    if (this.#json) {
      const values = this.failure
        ? { ...this.outputValues, error: jsonError(this.failure.kind, this.failure.message) }
        : this.outputValues;
      stdout.write(jsonLine(values, (_, value) => (typeof value === "string" ? redact(value) : value)));
    }
  }
}

/** How a failure reads in --json: its kind, the exit code it gives, and the message. */
export const jsonError = (kind: FailureKind, message: string) => ({
  kind,
  exitCode: EXIT_CODES[kind],
  message,
});

/**
 * A refusal before any operation ran (an unknown flag): the one JSON object --json promises, with
 * the operation's outputs as null (it has none of them), as any other refusal gives them.
 */
export function printJsonRefusal(
  message: string,
  outputs: readonly string[],
  stdout: Stream = process.stdout,
): void {
  const values = Object.fromEntries(outputs.map((name) => [name, null]));
  stdout.write(jsonLine({ ...values, error: jsonError("input", message) }));
}

/**
 * One line of JSON with every control character escaped: JSON escapes C0 itself; DEL and C1
 * (U+007F to U+009F) a terminal may act on are escaped here, so a value from the platform is inert.
 */
export function jsonLine(value: unknown, replacer?: (key: string, value: unknown) => unknown): string {
  const text = JSON.stringify(value, replacer).replace(
    /[\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `${text}\n`;
}
