import type { Masks } from "./masks.js";

// Workflow commands in a `run:` step's output, as the runner reads them ("Workflow commands for
// GitHub Actions", https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands;
// the runner's ActionCommandManager):
//   add-mask           masks VALUE in every line from there on, the command line never shown;
//   stop-commands      reads no command until the line `::TOKEN::`;
//   set-output, save-state  honoured, with the runner's deprecation warning;
//   set-env, add-path  honoured only where ACTIONS_ALLOW_UNSECURE_COMMANDS is true; otherwise the
//                      step fails with the runner's two errors;
//   error, warning, notice  an annotation: its kind, file, line and column, title, and message;
//   group, endgroup    a group's title;
//   debug              shown only where step debug logging is on (ACTIONS_STEP_DEBUG).
// Every other line is printed as it came, masked.

const DEPRECATED = (command: string) =>
  `The \`${command}\` command is deprecated and will be disabled soon. Please upgrade to using Environment Files. For more information see: https://github.blog/changelog/2022-10-11-github-actions-deprecating-save-state-and-set-output-commands/`;
const DISABLED = (command: string) =>
  `The \`${command}\` command is disabled. Please upgrade to using Environment Files or opt into unsecure command execution by setting the \`ACTIONS_ALLOW_UNSECURE_COMMANDS\` environment variable to \`true\`. For more information see: https://github.blog/changelog/2020-10-01-github-actions-deprecating-set-env-and-add-path-commands/`;

const ANNOTATIONS = { error: "Error", warning: "Warning", notice: "Notice" } as const;

/** A command's data as the runner unescapes it (`%25`, `%0D`, `%0A`). */
const unescapeData = (data: string) => data.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");
/** A property's value as the runner unescapes it: the data's escapes, and `%3A` and `%2C`. */
const unescapeProperty = (value: string) => unescapeData(value.replace(/%3A/g, ":").replace(/%2C/g, ","));

export interface StepOutputOptions {
  /** ACTIONS_ALLOW_UNSECURE_COMMANDS is true: set-env and add-path are honoured. */
  unsecureCommands: boolean;
  /** Step debug logging is on (ACTIONS_STEP_DEBUG): `::debug::` lines are shown. */
  debug: boolean;
}

export class StepOutput {
  /** What set-output, save-state, set-env and add-path set, for the step's result. */
  readonly outputs: Record<string, string> = {};
  readonly state: Record<string, string> = {};
  readonly env: Record<string, string> = {};
  readonly path: string[] = [];
  /** A command the runner refused: the step fails. */
  failed = false;
  /** The token `::stop-commands::` gave, while commands are stopped. */
  #stoppedUntil: string | undefined;

  constructor(
    private readonly masks: Masks,
    private readonly print: (line: string) => void,
    private readonly options: StepOutputOptions = { unsecureCommands: false, debug: false },
  ) {}

  line(raw: string): void {
    const text = raw.trimStart();
    if (this.#stoppedUntil !== undefined) {
      if (text === `::${this.#stoppedUntil}::`) this.#stoppedUntil = undefined;
      else this.#show(raw);
      return;
    }
    const command = /^::([A-Za-z-]+)(?: ([^:]*))?::(.*)$/.exec(text);
    if (!command) {
      this.#show(raw);
      return;
    }
    const [, name = "", given, rawData = ""] = command;
    const properties = propertiesOf(given);
    const data = unescapeData(rawData);
    switch (name) {
      case "add-mask":
        this.masks.add(data.trim());
        return;
      case "stop-commands":
        if (rawData !== "") this.#stoppedUntil = rawData;
        else this.#show(raw);
        return;
      case "set-output":
      case "save-state":
        this.#show(`Warning: ${DEPRECATED(name)}`);
        if (properties.name) (name === "set-output" ? this.outputs : this.state)[properties.name] = data;
        return;
      case "set-env":
      case "add-path":
        if (!this.options.unsecureCommands) {
          this.#show(`Error: Unable to process command '${text}' successfully.`);
          this.#show(`Error: ${DISABLED(name)}`);
          this.failed = true;
        } else if (name === "add-path") this.path.push(data);
        else if (properties.name) this.env[properties.name] = data;
        return;
      case "error":
      case "warning":
      case "notice":
        this.#show(`${ANNOTATIONS[name]}: ${annotationHead(properties)}${data}`);
        return;
      case "group":
        this.#show(`▼ ${data}`);
        return;
      case "endgroup":
        return;
      case "debug":
        if (this.options.debug) this.#show(`Debug: ${data}`);
        return;
      default:
        this.#show(raw);
    }
  }

  #show(line: string): void {
    this.print(this.masks.apply(line));
  }
}

/** `name=value,...` as the runner splits a command's properties. */
function propertiesOf(given: string | undefined): Record<string, string> {
  const properties: Record<string, string> = {};
  for (const pair of (given ?? "").split(",")) {
    const equals = pair.indexOf("=");
    if (equals > 0) properties[pair.slice(0, equals).trim()] = unescapeProperty(pair.slice(equals + 1));
  }
  return properties;
}

/** An annotation's place and title, before its message: "src/app.ts:3:7: Type error: ". */
function annotationHead(p: Record<string, string>): string {
  const line = p.line ?? p.startLine;
  const column = p.col ?? p.startColumn;
  const place = p.file ? [p.file, line, line ? column : undefined].filter(Boolean).join(":") : "";
  return `${place ? `${place}: ` : ""}${p.title ? `${p.title}: ` : ""}`;
}
