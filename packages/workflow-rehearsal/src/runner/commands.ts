import type { Masks } from "./masks.js";

// Workflow commands in a `run:` step's output, as the runner reads them ("Workflow commands for
// GitHub Actions", https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands):
// `::add-mask::VALUE` masks VALUE in every line from there on, the command line itself never
// shown; `::stop-commands::TOKEN` reads no command until the line `::TOKEN::`. Every other line is
// printed, masked.

/** A command's data as the runner unescapes it (`%25`, `%0D`, `%0A`). */
const unescapeData = (data: string) => data.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");

export class StepOutput {
  /** The token `::stop-commands::` gave, while commands are stopped. */
  #stoppedUntil: string | undefined;

  constructor(
    private readonly masks: Masks,
    private readonly print: (line: string) => void,
  ) {}

  line(raw: string): void {
    const text = raw.trimStart();
    if (this.#stoppedUntil !== undefined) {
      if (text === `::${this.#stoppedUntil}::`) this.#stoppedUntil = undefined;
      else this.print(this.masks.apply(raw));
      return;
    }
    const command = /^::([A-Za-z-]+)(?: [^:]*)?::(.*)$/.exec(text);
    if (command?.[1] === "add-mask") {
      this.masks.add(unescapeData(command[2] ?? "").trim());
      return;
    }
    if (command?.[1] === "stop-commands") {
      const token = command[2] ?? "";
      if (token !== "") {
        this.#stoppedUntil = token;
        return;
      }
    }
    this.print(this.masks.apply(raw));
  }
}
