// Shows what a step printed the way the runner's log does: `::add-mask::` values hidden as ***,
// groups as headings, errors and warnings labelled, and no command honoured inside a
// `::stop-commands::` block. Used by the demo.

const decode = (text: string) => text.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");

export class RunnerLog {
  #masks: string[] = [];
  #stopToken: string | undefined;
  #partial = "";

  constructor(private readonly write: (line: string) => void) {}

  /** Feeds a chunk of the step's output; complete lines are rendered. */
  feed(chunk: string): void {
    const lines = (this.#partial + chunk).split("\n");
    this.#partial = lines.pop() ?? "";
    for (const line of lines) this.#line(line);
  }

  #mask(text: string): string {
    return this.#masks.reduce((t, secret) => t.split(secret).join("***"), text);
  }

  #line(line: string): void {
    if (this.#stopToken !== undefined) {
      if (line === `::${this.#stopToken}::`) this.#stopToken = undefined;
      else this.write(`  ${this.#mask(line)}`);
      return;
    }
    const command = /^::([a-z-]+)(?: [^:]*)?::(.*)$/.exec(line);
    if (!command) {
      this.write(this.#mask(line));
      return;
    }
    const [, name, value = ""] = command;
    if (name === "add-mask") this.#masks.push(decode(value));
    else if (name === "stop-commands") this.#stopToken = value;
    else if (name === "group") this.write(`▼ ${this.#mask(decode(value))}`);
    else if (name === "endgroup") this.write("▲");
    else if (name === "error") this.write(`Error: ${this.#mask(decode(value))}`);
    else if (name === "warning") this.write(`Warning: ${this.#mask(decode(value))}`);
    else this.write(this.#mask(line));
  }
}
