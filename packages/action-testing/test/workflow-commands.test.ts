import { describe, expect, it } from "vitest";
import { actedCommands, forgedCommands } from "../src/workflow-commands.js";

// The bundles' tests read output as the runner does, with the rehearsal's reader: these cases
// show that reading catches what a forged line would do, and lets a guarded one through.

const HOSTILE = ["::add-mask::main", "::error::forged error", "x ##[warning]forged"];

describe("forgedCommands", () => {
  it("finds a hostile line printed bare, in either of the runner's forms", () => {
    expect(forgedCommands(["ok", ...HOSTILE].join("\n"), HOSTILE)).toEqual([
      { name: "add-mask", data: "main" },
      { name: "error", data: "forged error" },
      { name: "warning", data: "forged" },
    ]);
  });

  it("finds none inside a stop-commands block of an unguessable token", () => {
    const token = "0123456789abcdef0123456789abcdef";
    const stdout = [`::stop-commands::${token}`, ...HOSTILE, `::${token}::`, "::add-mask::own-secret"].join(
      "\n",
    );
    expect(forgedCommands(stdout, HOSTILE)).toEqual([]);
    expect(actedCommands(stdout).map((c) => c.name)).toEqual(["stop-commands", "add-mask"]);
  });

  it("finds a stop-commands token one could guess", () => {
    expect(forgedCommands(["::stop-commands::pause", ...HOSTILE, "::pause::"].join("\n"), HOSTILE)).toEqual([
      { name: "stop-commands", data: "pause" },
    ]);
  });
});
