import { Masks, StepOutput } from "@cwp/workflow-rehearsal";

// What the runner would make of a bundle's output, read with the rehearsal's reader of workflow
// commands (one copy of the runner's rules, actions/runner's ActionCommand.cs and
// ActionCommandManager.cs): a test asks which commands acted, not how lines look.

export interface ActedCommand {
  name: string;
  data: string;
}

/** The workflow commands the runner acts on in `stdout`, in order (none inside a stop-commands block). */
export function actedCommands(stdout: string): ActedCommand[] {
  const acted: ActedCommand[] = [];
  const output = new StepOutput(new Masks(), () => {}, {
    unsecureCommands: false,
    debug: false,
    onCommand: (command) => acted.push(command),
  });
  for (const line of stdout.split("\n")) output.line(line);
  return acted;
}

/**
 * The commands acting in `stdout` that untrusted text (what the platform or an event wrote, each
 * line read alone) would have made, and every stop-commands whose token is not 32 random hex
 * digits (one could guess it): both empty where untrusted text never acts.
 */
export function forgedCommands(stdout: string, untrusted: readonly string[]): ActedCommand[] {
  const key = (command: ActedCommand) => `${command.name}\0${command.data}`;
  const forged = new Set(
    untrusted.flatMap((text) => text.split(/\r?\n/).flatMap((line) => actedCommands(line).map(key))),
  );
  return actedCommands(stdout).filter(
    (command) =>
      forged.has(key(command)) || (command.name === "stop-commands" && !/^[0-9a-f]{32}$/.test(command.data)),
  );
}
