import { createContext, Script } from "node:vm";
import { InputError, StepFailure } from "@cwp/action-kit";
import { type Clock, realSpan } from "@cwp/client";
import { RE2JS } from "re2js";

// The patterns fetch-logs takes: the filters, which the platform runs, and `fail-on-regex`, which
// the step runs.

/** A pattern the platform runs (the filters): its syntax is checked here, nothing is run. */
export function platformPattern(value: string | undefined, input: string): void {
  if (value === undefined) return;
  try {
    new RegExp(value);
  } catch {
    throw new InputError(input, "must be a valid regular expression");
  }
}

/**
 * The most instructions a `fail-on-regex` may compile to. RE2's time is linear in the line, but
 * multiplied by the program's size: a Unicode class repeated (`(\p{L}\s?){1,300}`) compiles to
 * 1,802 instructions and took 57 µs a character. Every pattern a log gate needs fits well within
 * (`(?i)fatal|panic` is 13, `[\p{L}\p{N}]{10,50}ERROR` 97).
 */
export const MAX_PROGRAM_SIZE = 1000;
/** How long matching runs before the step looks at its cancel and deadline again, ms. */
const SLICE_MS = 250;
/** The longest one line may take to match: past it, the step cannot say whether it matches. */
const LINE_MS = 1000;

/** Matching runs here, so that the time limit of `vm` can stop it mid-line; progress is kept outside. */
const MATCH_LINES = new Script(
  "(() => { const p = progress, l = lines, t = test; for (let i = p.at; i < l.length; i++) { p.at = i; if (t(l[i])) return i; } p.at = l.length; return -1; })()",
);

export interface LineGate {
  /**
   * The index of the first of `lines` that matches, or -1: matched in slices that yield to the
   * event loop, within `signal` and `deadline`.
   */
  /** Within `deadline` on `clock` (the step's). */
  firstMatch(
    lines: readonly string[],
    bounds: { signal: AbortSignal; deadline: number; clock: Clock },
  ): Promise<number>;
}

/**
 * A pattern our step runs on every line it reads (`fail-on-regex`), in RE2's linear time.
 *
 * JavaScript's own engine backtracks: `(a+)+$` against a line of forty `a`s and a `!` takes longer
 * than any step may run, and cannot be stopped while it does. RE2 (re2js, pure JavaScript) matches
 * in time proportional to the line, whatever the pattern; on 100,000 log lines it took 163 ms
 * against V8's 127 ms and re2-wasm's 295 ms (fetch-logs README). What it cannot run in linear
 * time (backreferences, lookaround), or only slowly (a program past MAX_PROGRAM_SIZE), it refuses,
 * and so does this input, before anything is read. What is left is bounded as it runs: matching
 * stops every SLICE_MS to heed a cancel and the deadline, and one line taking LINE_MS fails the
 * step, saying so.
 */
export function linePattern(value: string | undefined, input: string): LineGate | undefined {
  if (value === undefined) return undefined;
  let pattern: RE2JS;
  try {
    pattern = RE2JS.compile(value);
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : "";
    throw new InputError(
      input,
      `must be a regular expression in RE2 syntax, which matches in linear time (no backreferences or lookaround)${why ? `: ${why}` : ""}`,
    );
  }
  const size = programSize(pattern);
  if (size > MAX_PROGRAM_SIZE)
    throw new InputError(
      input,
      `compiles to ${size} instructions, more than the ${MAX_PROGRAM_SIZE} a log line may be matched with in bounded time: use fewer or smaller repetitions ({n,m}) of classes`,
    );
  const test = (line: string) => pattern.test(line);
  return {
    async firstMatch(lines, { signal, deadline, clock }) {
      const context = createContext({ test, lines, progress: { at: 0 } });
      const progress = context.progress as { at: number };
      // A slice that ended on the line it began with is given that line once more, for LINE_MS.
      let retrying = false;
      const cancelled = () => new StepFailure(`Cancelled while matching ${input}.`);
      for (;;) {
        if (signal.aborted) throw cancelled();
        // Matching takes this machine's time: what is left on a sped-up clock is shorter here.
        const left = realSpan(clock, deadline - clock.now());
        if (left <= 0) throw new StepFailure(`Matching ${input} did not finish within timeout.`);
        const at = progress.at;
        try {
          const timeout = Math.min(retrying ? LINE_MS : SLICE_MS, left);
          return MATCH_LINES.runInContext(context, { timeout }) as number;
        } catch (error) {
          if ((error as { code?: string }).code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw error;
        }
        const stuck = progress.at === at && retrying && clock.now() < deadline;
        retrying = progress.at === at;
        // Through the timers' phase of the event loop, so that a cancel that came while the slice
        // ran (a signal, a timer) is heard before anything else is said: a cancel wins.
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (signal.aborted) throw cancelled();
        if (stuck)
          throw new StepFailure(
            `${input} took more than ${LINE_MS / 1000} s on one line of ${lines[at]?.length} characters: cannot tell whether it matches. Use a simpler pattern.`,
          );
      }
    },
  };
}

/** How many instructions RE2 compiled the pattern to (re2js keeps its program on the instance). */
function programSize(pattern: RE2JS): number {
  const program = (pattern as unknown as { re2Input?: { prog?: { inst?: unknown[] } } }).re2Input?.prog;
  if (!Array.isArray(program?.inst)) throw new Error("re2js no longer exposes its compiled program");
  return program.inst.length;
}
