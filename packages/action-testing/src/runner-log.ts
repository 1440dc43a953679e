import { Masks, StepOutput } from "@cwp/workflow-rehearsal";

// Shows what a step printed the way the runner's log does, with the rehearsal's reader of workflow
// commands (one copy of the runner's rules): `::add-mask::` values hidden as ***, groups as
// headings, errors and warnings labelled, no command honoured inside a `::stop-commands::` block.
// Used by the demo.

export class RunnerLog {
  readonly #output: StepOutput;
  #partial = "";

  constructor(write: (line: string) => void) {
    this.#output = new StepOutput(new Masks(), write);
  }

  /** Feeds a chunk of the step's output; complete lines are shown. */
  feed(chunk: string): void {
    const lines = (this.#partial + chunk).split("\n");
    this.#partial = lines.pop() ?? "";
    for (const line of lines) this.#output.line(line);
  }
}
