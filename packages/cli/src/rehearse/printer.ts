import type { JobRecord, Masks, StepRecord, unexpectedInputs } from "@cwp/workflow-rehearsal";
import { type Paint, painterFor, takesEscapes } from "../colour.js";
import { ACTION_INPUTS } from "../operations.js";
import { safeText, toolText } from "../terminal.js";
import type { CwpStepResult } from "./step-runner.js";
import { failedSteps, jobVerdict, notRehearsed, secretNotGiven } from "./verdict.js";

// What `cwp rehearse` prints: each step with what it gets (secrets as ***), the lines a step of
// ours prints as they come, its outputs and its result; then the job's verdict and the findings.
// Colours only on a TTY without NO_COLOR; every value from the workflow or the platform is shown
// as text (no escape sequence reaches the terminal).

type Stream = NodeJS.WritableStream & { isTTY?: boolean };

const MARK = {
  ran: "▶",
  script: "▶",
  local: "▶",
  remote: "▶",
  checkout: "▶",
  read: "○",
  skipped: "−",
  unknown: "?",
  refused: "✘",
} as const;

export class RehearsalPrinter {
  readonly #out: Stream;
  readonly #paint: Paint;
  /** Whether the output takes colour (a TTY, without NO_COLOR or TERM=dumb). */
  readonly #colour: boolean;

  /** The rehearsal's masks (secrets, and what steps mask with ::add-mask::): everything printed goes through them. */
  readonly #masks: Masks;

  /** The rehearsal's rule for an input an action does not have (loaded with the rehearsal, not before): the findings' own. */
  readonly #unexpected: typeof unexpectedInputs;

  readonly #env: NodeJS.ProcessEnv;

  constructor(out: Stream, env: NodeJS.ProcessEnv, masks: Masks, unexpected: typeof unexpectedInputs) {
    this.#out = out;
    this.#env = env;
    this.#unexpected = unexpected;
    this.#paint = painterFor(out, env);
    this.#colour = takesEscapes(out, env);
    this.#masks = masks;
  }

  #mask(text: string): string {
    return this.#masks.apply(text);
  }

  /**
   * A printer for one job of jobs side by side, with this one's colour and masks: its lines kept
   * and written here together by `flush` (as the job ends), or, `prefixed`, each written at once
   * with the job's name before it.
   */
  forJob(job: string, prefixed: boolean): { printer: RehearsalPrinter; flush(): void } {
    const kept: string[] = [];
    const out = this.#out;
    const prefix = `${this.#paint("2", `[${safeText(job)}]`)} `;
    const sink = {
      isTTY: out.isTTY,
      write: (text: string) => {
        if (prefixed) out.write(text.replace(/^(?=.)/gm, prefix));
        else kept.push(text);
        return true;
      },
    } as unknown as Stream;
    return {
      printer: new RehearsalPrinter(sink, this.#env, this.#masks, this.#unexpected),
      flush: () => {
        out.write(kept.join(""));
        kept.length = 0;
      },
    };
  }

  /** A line of the rehearsal's own; every name or value in it from the workflow is made inert first. */
  line(text: string): void {
    this.#out.write(`${this.#mask(text)}\n`);
  }

  #values(label: string, values: Record<string, string> | undefined, note?: (name: string) => string): void {
    const entries = Object.entries(values ?? {});
    if (entries.length === 0) return;
    this.line(`    ${this.#paint("2", label)}`);
    for (const [name, value] of entries)
      this.line(
        `      ${safeText(name)}: ${safeText(this.#mask(value.replace(/\n$/, "")))}${note?.(name) ?? ""}`,
      );
  }

  heading(text: string): void {
    this.line(this.#paint("1", safeText(text)));
  }

  /** Each secret the step reads that the rehearsal was not given, as a note under it. */
  #secretsNotGiven(step: StepRecord<CwpStepResult>): void {
    for (const name of step.secretsNotGiven ?? [])
      this.line(`    ${this.#paint("33", "note")}: ${safeText(secretNotGiven(name))}`);
  }

  stepStart(step: StepRecord<CwpStepResult>, platformUrl: string): void {
    this.#secretsNotGiven(step);
    for (const note of step.notes ?? []) this.line(`    ${this.#paint("33", "note")}: ${safeText(note)}`);
    if (step.kind === "local" || step.kind === "remote") {
      const what =
        step.kind === "local"
          ? `a local action: ${safeText(step.action ?? "")}`
          : `${safeText(step.action ?? "")}, another repository's action at ${safeText(step.commit?.slice(0, 12) ?? "")}`;
      this.line(`${MARK[step.kind]} ${safeText(step.name)} ${this.#paint("2", `(${what})`)}`);
      this.#values("with", step.inputs);
      return;
    }
    if (step.kind === "checkout") {
      this.line(
        `${MARK.checkout} ${safeText(step.name)} ${this.#paint("2", `(${safeText(step.action ?? "")} of this repository at this commit: rehearsed as done)`)}`,
      );
      this.#values("with", step.inputs);
      return;
    }
    if (step.kind === "script" && step.stage !== undefined) {
      // As the runner's log names an action's pre or post: of its action, at its commit.
      const of =
        step.commit === undefined
          ? `a local action: ${safeText(step.action ?? "")}`
          : `${safeText(step.action ?? "")}, another repository's action at ${safeText(step.commit.slice(0, 12))}`;
      this.line(
        `${MARK.script} ${safeText(step.name)} ${this.#paint("2", `(${step.stage} of ${of}, --run-shell)`)}`,
      );
      return;
    }
    if (step.kind === "script") {
      const shell = step.shell === undefined ? "bash -e {0}, the default" : safeText(step.shell);
      this.line(
        `${MARK.script} ${safeText(step.name)} ${this.#paint("2", `(run: shell ${shell}, --run-shell)`)}`,
      );
      return;
    }
    this.line(
      `${MARK.ran} ${safeText(step.name)} ${this.#paint("2", `(${step.action}, run against ${platformUrl})`)}`,
    );
    this.#values("with", step.inputs, (name) => this.#ourInputNote(step, name));
  }

  /**
   * What the rehearsal says of an input of our step where it is printed: one the action does not
   * have is the finding (with what was meant); the URL and a token the workflow gives are the
   * rehearsal's platform's; an empty token is empty, because its secret was not given.
   */
  #ourInputNote(step: StepRecord<CwpStepResult>, name: string): string {
    const [unexpected] = this.#unexpected([name], ACTION_INPUTS[step.action ?? ""] ?? []);
    if (unexpected)
      return this.#paint(
        "31",
        ` (finding: not an input of ${step.action}${unexpected.meant ? `; did you mean '${unexpected.meant}'?` : ""})`,
      );
    if (name === "api-token" && step.inputs?.[name] === "") {
      const secrets = [...(step.secretsNotGiven ?? [])];
      return this.#paint(
        "33",
        secrets.length > 0
          ? ` (empty: ${secrets.map((secret) => `secrets.${secret} is not given, --secret ${secret} gives it`).join("; ")})`
          : " (empty: the workflow gives no token)",
      );
    }
    return name === "api-url" || name === "api-token"
      ? this.#paint("2", " (the rehearsal's platform stands in)")
      : "";
  }

  /** A line a step printed: a tool's colour shown as colour on a terminal, dropped elsewhere. */
  stepLine(text: string): void {
    this.line(`    ${this.#paint("2", "│")} ${toolText(text, this.#colour)}`);
  }

  stepEnd(step: StepRecord<CwpStepResult>): void {
    const action = step.kind === "local" || step.kind === "remote";
    for (const warning of step.local?.warnings ?? []) this.stepLine(`Warning: ${warning}`);
    if (action && step.local?.notRehearsed !== undefined) {
      this.line(`    ${this.#paint("33", "not rehearsed")}: ${safeText(step.local.notRehearsed)}`);
      return;
    }
    if (action && step.local?.error !== undefined) this.stepLine(`Error: ${step.local.error}`);
    if (step.kind === "ran" || step.kind === "script" || action || step.kind === "checkout") {
      const result = step.result ?? step.script ?? step.local ?? step.checkout;
      if (step.result && step.result.githubOnly.length > 0)
        this.line(
          `    ${this.#paint("33", "not rehearsed")} (GitHub only): ${safeText(step.result.githubOnly.join(", "))}`,
        );
      this.#values("outputs", result?.outputs);
      const ok = result?.code === 0;
      const failure = this.#paint("31", `✘ failure (exit code ${result?.code})`);
      this.line(
        `    ${ok ? this.#paint("32", "✔ success") : step.cancelled ? this.#paint("33", "⊘ cancelled") : step.continuedOnError ? `${failure}; continue-on-error: the job goes on` : failure}`,
      );
      return;
    }
    this.#secretsNotGiven(step);
    if (step.kind === "read") {
      this.line(
        `${MARK.read} ${safeText(step.name)} ${this.#paint("2", `(not run: ${safeText(step.notRehearsed ?? "not one of our actions")})`)}`,
      );
      this.#values("with", step.inputs);
      this.#values("env", step.env);
      return;
    }
    const why =
      step.kind === "skipped"
        ? `skipped: if: ${step.reason}`
        : step.kind === "unknown"
          ? `not rehearsed: it reads a value ${step.reason}`
          : `refused: ${step.reason}`;
    this.line(
      `${MARK[step.kind]} ${safeText(step.name)} ${this.#paint(step.kind === "refused" ? "31" : step.kind === "unknown" ? "33" : "2", `(${safeText(why ?? "")})`)}`,
    );
  }

  /** A job's verdict and findings; then its job summary, where its steps wrote one, and the file it is kept in. */
  job(record: JobRecord<CwpStepResult>, summaryFile?: string): void {
    const job = safeText(record.job);
    const reason = safeText(record.reason ?? "");
    const named = (steps: StepRecord<CwpStepResult>[], why?: (s: StepRecord<CwpStepResult>) => string) =>
      steps.map((s) => `"${safeText(s.name)}"${why ? ` (${safeText(why(s))})` : ""}`).join(", ");
    switch (jobVerdict(record)) {
      case "not-rehearsed":
        this.line(this.#paint("33", `job ${job}: not rehearsed (${reason})`));
        break;
      case "cancelled":
        this.line(this.#paint("33", `⊘ job ${job} was cancelled`));
        break;
      case "not-run":
        this.line(this.#paint("2", `job ${job}: would not run (${reason})`));
        break;
      case "pass":
        this.line(this.#paint("32", `✔ job ${job} would pass`));
        break;
      case "pass-as-far-as-rehearsed":
        this.line(
          this.#paint(
            "32",
            `✔ job ${job} would pass as far as rehearsed; not rehearsed: ${named(notRehearsed(record), (s) => s.notRehearsed ?? "")}`,
          ),
        );
        break;
      case "fail": {
        const failed = failedSteps(record);
        this.line(
          this.#paint("31", `✘ job ${job} would fail${failed.length > 0 ? `: ${named(failed)} failed` : ""}`),
        );
      }
    }
    for (const finding of record.findings)
      this.line(`  ${this.#paint("31", "finding:")} ${safeText(finding)}`);
    if (record.summary !== undefined) {
      this.line(
        `  ${this.#paint("1", "job summary")}${summaryFile ? ` (kept in ${safeText(summaryFile)})` : ""}:`,
      );
      for (const line of record.summary.replace(/\n$/, "").split("\n")) this.line(`    ${safeText(line)}`);
    }
    this.line("");
  }
}
