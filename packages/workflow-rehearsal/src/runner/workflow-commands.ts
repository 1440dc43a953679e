import type { Masks } from "./masks.js";

// Workflow commands in a `run:` step's output, as the runner's code reads them ("Workflow commands
// for GitHub Actions", https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands).
// The parsing is actions/runner's src/Runner.Common/ActionCommand.cs (@42fe310): `::name props::data`
// at a line's start (after leading spaces), or the older `##[name props]data` anywhere in the line;
// a name is one of the registered commands in any case, properties are case-insensitive. What each
// command does is src/Runner.Worker/ActionCommandManager.cs (@02523b9): a command that throws fails
// the step with "Unable to process command '...' successfully." and the reason. Every other line is
// printed as it came, masked.

const DEPRECATED = (command: string) =>
  `The \`${command}\` command is deprecated and will be disabled soon. Please upgrade to using Environment Files. For more information see: https://github.blog/changelog/2022-10-11-github-actions-deprecating-save-state-and-set-output-commands/`;
const DISABLED = (command: string) =>
  `The \`${command}\` command is disabled. Please upgrade to using Environment Files or opt into unsecure command execution by setting the \`ACTIONS_ALLOW_UNSECURE_COMMANDS\` environment variable to \`true\`. For more information see: https://github.blog/changelog/2020-10-01-github-actions-deprecating-set-env-and-add-path-commands/`;

/** The runner's registered commands (ActionCommandManager.Initialize: stop-commands and every extension). */
const REGISTERED = [
  "stop-commands",
  "set-env",
  "set-output",
  "save-state",
  "add-mask",
  "add-path",
  "add-matcher",
  "remove-matcher",
  "debug",
  "warning",
  "error",
  "notice",
  "group",
  "endgroup",
  "echo",
] as const;
type CommandName = (typeof REGISTERED)[number];
/** The commands whose own line is never echoed (their OmitEcho): a mask's value, a message's text. */
const OMIT_ECHO = new Set<string>(["add-mask", "debug", "warning", "error", "notice"]);

const ANNOTATIONS = { error: "Error", warning: "Warning", notice: "Notice" } as const;

interface ActionCommand {
  /** Its name as registered (lower case), whatever case the line wrote. */
  name: string;
  /** By name in lower case: the runner's properties are case-insensitive. */
  properties: Map<string, string>;
  data: string;
}

/** Each escape as the runner undoes it, in its order (`%25` last). */
const undoEscapes = (text: string, mappings: ReadonlyArray<readonly [string, string]>) =>
  mappings.reduce((out, [escaped, token]) => out.split(escaped).join(token), text);
const DATA: ReadonlyArray<readonly [string, string]> = [
  ["%0D", "\r"],
  ["%0A", "\n"],
  ["%25", "%"],
];
const PROPERTY: ReadonlyArray<readonly [string, string]> = [
  ["%0D", "\r"],
  ["%0A", "\n"],
  ["%3A", ":"],
  ["%2C", ","],
  ["%25", "%"],
];
/** The `##[` form's escapes (ActionCommand._escapeMappings). */
const LEGACY: ReadonlyArray<readonly [string, string]> = [
  ["%3B", ";"],
  ["%0D", "\r"],
  ["%0A", "\n"],
  ["%5D", "]"],
  ["%25", "%"],
];

/** The command's name as registered, or undefined when the runner does not know it. */
const registered = (name: string, extra: string | undefined): string | undefined => {
  const lower = name.toLowerCase();
  if ((REGISTERED as readonly string[]).includes(lower)) return lower;
  return extra !== undefined && lower === extra.toLowerCase() ? lower : undefined;
};

/** Properties `key=value` split by `separator`, as the runner splits them (empty entries dropped). */
function propertiesOf(text: string, separator: string, mappings: typeof PROPERTY): Map<string, string> {
  const properties = new Map<string, string>();
  for (const entry of text.split(separator).filter((e) => e !== "")) {
    const equals = entry.indexOf("=");
    // Split in two, empty parts dropped: "key=" and "=value" are no property.
    if (equals <= 0 || equals === entry.length - 1) continue;
    properties.set(entry.slice(0, equals).toLowerCase(), undoEscapes(entry.slice(equals + 1), mappings));
  }
  return properties;
}

/**
 * A command from its info (`name props`) and its data, or undefined where the name is not
 * registered: how both of the runner's forms read what they cut out of the line.
 */
function commandOf(
  info: string,
  data: string,
  /** How the form splits and unescapes; TryParseV2 trims its properties' text, TryParse does not. */
  form: { separator: string; trim: boolean; properties: typeof PROPERTY; data: typeof DATA },
  stopToken: string | undefined,
): ActionCommand | undefined {
  const space = info.indexOf(" ");
  const name = registered(space < 0 ? info : info.slice(0, space), stopToken);
  if (name === undefined) return undefined;
  return {
    name,
    properties:
      space > 0
        ? propertiesOf(
            form.trim ? info.slice(space + 1).trim() : info.slice(space + 1),
            form.separator,
            form.properties,
          )
        : new Map(),
    data: undoEscapes(data, form.data),
  };
}

/** `::name props::data` at the line's start, leading spaces aside (ActionCommand.TryParseV2). */
function parseV2(line: string, stopToken: string | undefined): ActionCommand | undefined {
  const message = line.trimStart();
  if (!message.startsWith("::")) return undefined;
  const end = message.indexOf("::", 2);
  if (end < 0) return undefined;
  const form = { separator: ",", trim: true, properties: PROPERTY, data: DATA };
  return commandOf(message.slice(2, end), message.slice(end + 2), form, stopToken);
}

/** `##[name props]data`, anywhere in the line (ActionCommand.TryParse). */
function parseV1(line: string, stopToken: string | undefined): ActionCommand | undefined {
  const prefix = line.indexOf("##[");
  if (prefix < 0) return undefined;
  const bracket = line.indexOf("]", prefix);
  if (bracket < 0) return undefined;
  const form = { separator: ";", trim: false, properties: LEGACY, data: LEGACY };
  return commandOf(line.slice(prefix + 3, bracket), line.slice(bracket + 1), form, stopToken);
}

/** The runner's words for a stop-commands token it refuses (src/Runner.Common/Constants.cs, UnsupportedStopCommandTokenDisabled). */
const STOP_TOKEN_REFUSED =
  "You cannot use a endToken that is an empty string, the string 'pause-logging', or another workflow command. For more information see: https://docs.github.com/actions/learn-github-actions/workflow-commands-for-github-actions#example-stopping-and-starting-workflow-commands or opt into insecure command execution by setting the `ACTIONS_ALLOW_UNSECURE_STOPCOMMAND_TOKENS` environment variable to `true`.";

/** A token stop-commands may pause with: not empty, not `pause-logging`, not a registered command's name, in any case (ValidateStopToken). */
const validStopToken = (token: string) =>
  token !== "" && token.toLowerCase() !== "pause-logging" && registered(token, undefined) === undefined;

/** A command the runner refuses: the step fails, naming the command and why. */
class CommandError extends Error {}

export interface StepOutputOptions {
  /** ACTIONS_ALLOW_UNSECURE_COMMANDS is true: set-env and add-path are honoured. */
  unsecureCommands: boolean;
  /** Step debug logging is on (ACTIONS_STEP_DEBUG): `::debug::` lines are shown, and commands echoed. */
  debug: boolean;
  /** ACTIONS_ALLOW_UNSECURE_STOPCOMMAND_TOKENS is true: a stop-commands token the runner would refuse is taken. */
  unsecureStopTokens?: boolean;
  /** Called with each command the runner would act on, as it acts (the bundles' tests list them). */
  onCommand?(command: { name: string; data: string }): void;
}

export class StepOutput {
  /** What set-output, save-state, set-env and add-path set, for the step's result. */
  readonly outputs: Record<string, string> = {};
  readonly state: Record<string, string> = {};
  readonly env: Record<string, string> = {};
  /** add-path's folders, in the order added (the job's PATH takes them with prependPath). */
  readonly path: string[] = [];
  /** A command the runner refused: the step fails. */
  failed = false;
  /** The token `::stop-commands::` gave, while commands are stopped. */
  #stoppedUntil: string | undefined;
  /** Whether a command's own line is printed (`::echo::on`); off unless step debug is on. */
  #echo: boolean;

  constructor(
    private readonly masks: Masks,
    private readonly print: (line: string) => void,
    private readonly options: StepOutputOptions = { unsecureCommands: false, debug: false },
  ) {
    this.#echo = options.debug;
  }

  line(raw: string): void {
    const command = parseV2(raw, this.#stoppedUntil) ?? parseV1(raw, this.#stoppedUntil);
    if (this.#stoppedUntil !== undefined) {
      // Printed either way: resumed only by its token; any other command is a line like any other.
      this.#show(raw);
      if (this.#stoppedUntil !== "" && command?.name === this.#stoppedUntil.toLowerCase())
        this.#stoppedUntil = undefined;
      return;
    }
    if (!command) {
      this.#show(raw);
      return;
    }
    this.options.onCommand?.({ name: command.name, data: command.data });
    if (command.name === "stop-commands") {
      // ValidateStopToken, and then a token longer than 6 characters is masked from here on (the
      // fork google-ml-infra/runner @0e8eb5a9 carries the runner's newest ActionCommandManager.cs;
      // actions/runner's stored copy @02523b9 is older and has neither).
      const token = command.data;
      if (!this.options.unsecureStopTokens && !validStopToken(token)) {
        this.#show(`Error: ${STOP_TOKEN_REFUSED}`);
        this.failed = true;
        return;
      }
      if (token.length > 6) this.masks.add(token);
      this.#show(raw);
      this.#stoppedUntil = token;
      return;
    }
    if (this.#echo && !OMIT_ECHO.has(command.name)) this.#show(raw);
    try {
      this.#run(command.name as CommandName, command);
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      this.#show(
        `Error: Unable to process command '${OMIT_ECHO.has(command.name) ? command.name : raw}' successfully.`,
      );
      this.#show(`Error: ${error.message}`);
      this.failed = true;
    }
  }

  #run(name: CommandName, { properties, data }: ActionCommand): void {
    const required = (property: string) => {
      const value = properties.get(property);
      if (!value) throw new CommandError(`Required field '${property}' is missing in ##[${name}] command.`);
      return value;
    };
    switch (name) {
      case "add-mask":
        if (data.trim() === "")
          this.#show("Warning: Can't add secret mask for empty string in ##[add-mask] command.");
        else this.masks.add(data);
        return;
      case "set-output":
        this.#show(`Warning: ${DEPRECATED(name)}`);
        this.outputs[required("name")] = data;
        return;
      case "save-state":
        this.#show(`Warning: ${DEPRECATED(name)}`);
        this.state[required("name")] = data;
        return;
      case "set-env": {
        if (!this.options.unsecureCommands) throw new CommandError(DISABLED(name));
        const variable = required("name");
        // An error annotation, and the variable left as it was: the step goes on.
        if (variable.toUpperCase() === "NODE_OPTIONS")
          this.#show("Error: Can't update NODE_OPTIONS environment variable using ::set-env:: command.");
        else this.env[variable] = data;
        return;
      }
      case "add-path": {
        if (!this.options.unsecureCommands) throw new CommandError(DISABLED(name));
        if (data === "") throw new CommandError("Value cannot be null. (Parameter 'path')");
        this.path.push(data);
        return;
      }
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
      case "echo":
        switch (data.trim().toUpperCase()) {
          case "ON":
            this.#echo = true;
            return;
          case "OFF":
            this.#echo = false;
            return;
          default:
            throw new CommandError(
              `Invalid echo command value. Possible values can be: 'on', 'off'. Current value is: '${data}'.`,
            );
        }
      case "add-matcher":
      case "remove-matcher":
      case "stop-commands":
        // Problem matchers turn later lines into annotations; the rehearsal prints the lines.
        return;
    }
  }

  #show(line: string): void {
    this.print(this.masks.apply(line));
  }
}

/** An annotation's place and title, before its message: "src/app.ts:3:7: Type error: ". */
function annotationHead(p: Map<string, string>): string {
  const line = p.get("line") ?? p.get("startline");
  const column = p.get("col") ?? p.get("startcolumn");
  const file = p.get("file");
  const place = file ? [file, line, line ? column : undefined].filter(Boolean).join(":") : "";
  const title = p.get("title");
  return `${place ? `${place}: ` : ""}${title ? `${title}: ` : ""}`;
}
