import { InputError } from "@cwp/action-kit";
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
 * A pattern our step runs on every line it reads (`fail-on-regex`), in RE2's linear time.
 *
 * JavaScript's own engine backtracks: `(a+)+$` against a line of forty `a`s and a `!` takes longer
 * than any step may run, and cannot be stopped while it does. RE2 (re2js, pure JavaScript) matches
 * in time proportional to the line, whatever the pattern; on 100,000 log lines it took 163 ms
 * against V8's 127 ms and re2-wasm's 295 ms (fetch-logs README). What it cannot run in linear
 * time (backreferences, lookaround) it refuses, and so does this input, before anything is read.
 */
export function linePattern(
  value: string | undefined,
  input: string,
): ((line: string) => boolean) | undefined {
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
  return (line) => pattern.test(line);
}
