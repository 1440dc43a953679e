import { handedClock, onCancel, runWork, takesLines, useHost } from "@cwp/action-kit/engine";
import { EMULATOR_OPTIONS } from "@cwp/emulator/options";
import { Command, Option } from "commander";
import manifest from "../package.json" with { type: "json" };
import { EXIT_CODES } from "./exit-codes.js";
import { flagDefault, flagDefaultHelp } from "./flag-defaults.js";
import { OPERATIONS, REHEARSAL_INPUTS } from "./operations.js";
import { addRehearseCommand } from "./rehearse/command.js";
import { repeatedFlag } from "./repeated-flags.js";
import { TerminalHost } from "./terminal.js";
import { exampleHelp, terminalDescription, terminalInputHelp } from "./terminal-help.js";

// `cwp <operation>`: flags are the action's inputs (same names, meaning and defaults, from its
// action.yml); the values go through the same input parsing as on a runner. Commander because it
// is small, has no dependencies, and gives subcommands, help and unknown-flag errors for free.

const isBoolean = (spec: { default?: string }) => spec.default === "true" || spec.default === "false";

/** Runs one operation with the engine on a terminal host; resolves to the exit code. */
async function runOperation(
  name: string,
  flags: Record<string, unknown>,
  attribute: (input: string) => string,
): Promise<number> {
  const operation = OPERATIONS[name];
  if (!operation) throw new Error(`no operation ${name}`);
  // A reader that went away is not a cancel (index.ts): only a signal cancels.
  const cancel = onCancel();
  // A step `cwp rehearse` runs was given its inputs as a workflow's `with:`: named so.
  const rehearsed = process.env[REHEARSAL_INPUTS] !== undefined;
  const handed = inputsFromEnvironment();
  const raw = (input: string) => {
    const value = flags[attribute(input)] ?? handed[input];
    if (value === undefined) return flagDefault(operation.metadata.inputs[input] ?? {});
    return value === true ? "true" : String(value);
  };
  // It counts the platform's time: the one the rehearsal hands a step, or the one an emulator on
  // this machine says it keeps (`cwp-emulator --speed 60`), asked once the flags are valid; a real
  // platform's is this machine's.
  const clock = rehearsed ? handedClock() : undefined;
  // A rehearsed step is an action's on a runner: its files go under RUNNER_TEMP, as the action's do.
  const terminal = new TerminalHost({
    ...(clock ? { clock } : { emulatorClock: !rehearsed }),
    json: flags.json === true,
    inputsAs: rehearsed ? "inputs" : "flags",
    ...(rehearsed && process.env.RUNNER_TEMP ? { filesDir: process.env.RUNNER_TEMP } : {}),
    ...(rehearsed && process.env.GITHUB_STEP_SUMMARY ? { summaryFile: process.env.GITHUB_STEP_SUMMARY } : {}),
  });
  useHost(terminal);
  await runWork(operation.definition, raw, cancel);
  terminal.finish();
  return EXIT_CODES[terminal.failure?.kind ?? "success"];
}

/** The inputs `cwp rehearse` handed through the environment (REHEARSAL_INPUTS), if any. */
function inputsFromEnvironment(): Record<string, string> {
  const text = process.env[REHEARSAL_INPUTS];
  if (text === undefined) return {};
  const value = JSON.parse(text) as unknown;
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new Error(`${REHEARSAL_INPUTS} must be a JSON object of input names to text`);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

export function program(setExitCode: (code: number) => void): Command {
  const cwp = new Command("cwp")
    .description(
      "The cwp GitHub Actions' operations from any terminal or CI system: start work on the Cloud Workload Platform, wait for it, stream its logs, report costs.",
    )
    // A typo gets the flag, the closest one (Commander's suggestion) and where the help is: a
    // few lines, not the whole help.
    .version(manifest.version, "-V, --version", "print cwp's version")
    // cwp's own flags come before the operation: upgrade-addon has an input of its own named
    // --version, which must reach it.
    .enablePositionalOptions()
    .showHelpAfterError("Run 'cwp --help' for the operations.")
    // Commander's own refusals (an unknown flag, a value missing or given twice) are bad input like
    // the operations' own: exit code 2, never the 1 of work that failed.
    .exitOverride((error) => {
      throw error.exitCode === 0 ? error : Object.assign(error, { exitCode: EXIT_CODES.input });
    });
  for (const [name, { metadata, definition }] of Object.entries(OPERATIONS)) {
    const command = cwp
      .command(name)
      .description(terminalDescription(name, metadata))
      .showHelpAfterError(`Run 'cwp ${name} --help' for its flags.`);
    const attributes = new Map<string, string>();
    for (const [input, spec] of Object.entries(metadata.inputs)) {
      const byDefault = flagDefaultHelp(spec);
      const help = terminalInputHelp(name, input, spec);
      const option = new Option(
        `--${input} ${isBoolean(spec) ? "[value]" : "<value>"}`,
        `${help}${spec.required ? " (required)" : ""}${byDefault !== undefined ? ` (default: ${byDefault})` : ""}`,
      );
      // Still taken (a script written for every operation alike passes it), but it does nothing.
      if (help === undefined) option.hideHelp();
      // A bare boolean flag is "true" through the same parser, so a repeat of it is refused too.
      if (isBoolean(spec)) option.preset("true");
      const lines = takesLines(definition.inputs[input]);
      const flag = {
        name: input,
        takesLines: lines,
        refuse: (message: string) => command.error(message, { exitCode: EXIT_CODES.input }),
      };
      option.argParser((value: string, previous: string | undefined) => repeatedFlag(value, previous, flag));
      attributes.set(input, option.attributeName());
      command.addOption(option);
    }
    command
      .option("--json", "print the outputs as one JSON object on stdout; everything else goes to stderr")
      .addHelpText("after", exampleHelp(name, metadata, EXIT_CODES))
      .action(async (flags: Record<string, unknown>) => {
        setExitCode(await runOperation(name, flags, (input) => attributes.get(input) ?? input));
      });
  }
  addRehearseCommand(cwp, setExitCode);
  const emulator = cwp
    .command("emulator")
    .description("Start the platform emulator (as cwp-emulator).")
    .showHelpAfterError("Run 'cwp emulator --help' for its flags.");
  for (const [option, spec] of Object.entries(EMULATOR_OPTIONS))
    emulator.option(
      `--${option} <value>`,
      `${spec.description}${"default" in spec ? ` (default: ${spec.default})` : ""}`,
    );
  // The emulator's own command line parses the options, so `cwp emulator` and cwp-emulator agree.
  // Loaded for this command only: every other command starts without it.
  emulator.action(async (_flags: unknown, command: Command) => {
    const { emulatorMain } = await import("@cwp/emulator");
    const args = Object.keys(EMULATOR_OPTIONS).flatMap((option) => {
      const value = command.getOptionValue(new Option(`--${option} <value>`).attributeName());
      return value === undefined ? [] : [`--${option}`, String(value)];
    });
    await emulatorMain(args);
  });
  return cwp;
}
