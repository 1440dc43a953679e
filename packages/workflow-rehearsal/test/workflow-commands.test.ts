import { describe, expect, it } from "vitest";
import { Masks, prependPath, StepOutput } from "../src/index.js";
import type { StepOutputOptions } from "../src/runner/workflow-commands.js";

// Workflow commands as the runner's code reads them. The parser: actions/runner
// src/Runner.Common/ActionCommand.cs @42fe3105 (TryParseV2 for `::`, TryParse for `##[`); what each
// command does: src/Runner.Worker/ActionCommandManager.cs @02523b9a (TryProcessCommand and each
// *CommandExtension.ProcessCommand).

function step(lines: string[], options: StepOutputOptions = { unsecureCommands: false, debug: false }) {
  const printed: string[] = [];
  const output = new StepOutput(new Masks(), (line) => printed.push(line), options);
  for (const line of lines) output.line(line);
  return { output, printed };
}

describe("workflow commands, as actions/runner parses them (ActionCommand.cs @42fe3105)", () => {
  it("TryParseV2: a registered name in any case, properties in any case, after leading spaces only", () => {
    const { output, printed } = step([
      "::SET-OUTPUT NAME=upper::1",
      "   ::set-output name=indented::2",
      "text ::set-output name=later::3",
      "::set-outputs name=unknown::4",
    ]);
    expect(output.outputs).toEqual({ upper: "1", indented: "2" });
    // Not at the start, or not a registered name: a line like any other.
    expect(printed.filter((l) => !l.startsWith("Warning:"))).toEqual([
      "text ::set-output name=later::3",
      "::set-outputs name=unknown::4",
    ]);
  });

  it("TryParse: the older ##[name props]data anywhere in a line, properties split by ';'", () => {
    const { output, printed } = step([
      "##[set-output name=old;]v",
      "before ##[set-output name=after]x%3By%5D",
      "prefix ##[warning]careful",
    ]);
    expect(output.outputs).toEqual({ old: "v", after: "x;y]" });
    expect(printed).toContain("Warning: careful");
  });

  it("unescapes data (%0D %0A %25) and properties (%3A %2C too), and drops 'key=' and '=value'", () => {
    const { output } = step(["::set-output name=a%3Ab%2Cc,=x,empty=::one%0Atwo%25"]);
    expect(output.outputs).toEqual({ "a:b,c": "one\ntwo%" });
  });
});

describe("what each command does (ActionCommandManager.cs @02523b9a)", () => {
  it("set-output and save-state without a name fail the step: \"Required field 'name' is missing\"", () => {
    const { output, printed } = step(["::set-output::v", "::save-state name=::w"]);
    expect(output.failed).toBe(true);
    expect(printed).toContain("Error: Unable to process command '::set-output::v' successfully.");
    expect(printed).toContain("Error: Required field 'name' is missing in ##[set-output] command.");
    expect(printed).toContain("Error: Required field 'name' is missing in ##[save-state] command.");
  });

  it("set-env, where allowed, never sets NODE_OPTIONS: an error annotation, and the step goes on", () => {
    const { output, printed } = step(["::set-env name=node_options::--require x", "::set-env name=A::1"], {
      unsecureCommands: true,
      debug: false,
    });
    expect(output.failed).toBe(false);
    expect(output.env).toEqual({ A: "1" });
    expect(printed).toContain(
      "Error: Can't update NODE_OPTIONS environment variable using ::set-env:: command.",
    );
  });

  it("add-path, where allowed, adds folders in order (prependPath puts the latest first, once); an empty one fails", () => {
    const { output, printed } = step(["::add-path::/a", "::add-path::/b", "::add-path::/a", "::add-path::"], {
      unsecureCommands: true,
      debug: false,
    });
    const path = ["/usr/bin"];
    prependPath(path, output.path);
    expect(path).toEqual(["/a", "/b", "/usr/bin"]);
    expect(output.failed).toBe(true);
    expect(printed).toContain("Error: Value cannot be null. (Parameter 'path')");
  });

  it("echo on prints each command's line (never add-mask's or an annotation's), off stops; another value fails the step", () => {
    const { output, printed } = step([
      "::set-output name=quiet::1",
      "::echo::on",
      "::set-output name=loud::2",
      "::add-mask::hidden-value",
      "::echo::OFF",
      "::set-output name=quiet-again::3",
      "::echo::maybe",
    ]);
    expect(printed.filter((l) => l.startsWith("::"))).toEqual(["::set-output name=loud::2", "::echo::OFF"]);
    expect(output.failed).toBe(true);
    expect(printed).toContain(
      "Error: Invalid echo command value. Possible values can be: 'on', 'off'. Current value is: 'maybe'.",
    );
  });

  // ValidateStopToken and the masking of a token longer than 6 characters: the runner's newest
  // ActionCommandManager.cs, in the fork google-ml-infra/runner @0e8eb5a9 (TryProcessCommand).
  it("add-mask of nothing is a warning; stop-commands prints its line and its token's (masked), and reads no command between", () => {
    const { output, printed } = step([
      "::add-mask::   ",
      "::stop-commands::pause-token-1",
      "::set-output name=inside::no",
      "::PAUSE-TOKEN-1::",
      "::set-output name=after::yes",
    ]);
    expect(printed).toContain("Warning: Can't add secret mask for empty string in ##[add-mask] command.");
    expect(output.outputs).toEqual({ after: "yes" });
    expect(printed.slice(1, 4)).toEqual([
      "::stop-commands::***",
      "::set-output name=inside::no",
      "::PAUSE-TOKEN-1::",
    ]);
  });

  it("refuses a stop-commands token that is empty, pause-logging or a command's name, in any case: the step fails, commands go on", () => {
    for (const token of ["", "PAUSE-LOGGING", "Set-Output", "stop-commands"]) {
      const { output, printed } = step([`::stop-commands::${token}`, "::set-output name=after::read"]);
      expect(output.failed, token).toBe(true);
      expect(printed[0]).toMatch(
        /^Error: You cannot use a endToken that is an empty string, the string 'pause-logging', or another workflow command\./,
      );
      expect(output.outputs).toEqual({ after: "read" });
    }
    // Unless ACTIONS_ALLOW_UNSECURE_STOPCOMMAND_TOKENS is true; a short token is not masked.
    const allowed = step(["::stop-commands::debug", "::set-output name=inside::no", "::debug::"], {
      unsecureCommands: false,
      debug: false,
      unsecureStopTokens: true,
    });
    expect(allowed.output.failed).toBe(false);
    expect(allowed.output.outputs).toEqual({});
    expect(allowed.printed[0]).toBe("::stop-commands::debug");
  });
});
