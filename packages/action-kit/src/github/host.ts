import * as core from "@actions/core";
import { systemClock } from "@cwp/client";
import type { Host } from "../engine/host.js";
import { handedClock } from "../engine/platform-clock.js";
import { renderSummary } from "./summary.js";
import { inert, noOldCommands, printUntrusted } from "./untrusted.js";

/**
 * The GitHub runner as a host: status lines kept inert (no remote text can start a workflow
 * command), annotations, masking, one collapsible group per log, lines inside a stop-commands
 * block, step outputs and the job summary.
 */
export function githubHost(): Host {
  let group: string | undefined;
  const summary = async (markdown: string) => {
    if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown).write();
  };
  return {
    // A runner's clock, unless whoever runs the step hands it the platform's (an emulator's, faster).
    clock: handedClock() ?? systemClock,
    info: (line) => core.info(inert(line)),
    debug: (line) => core.debug(noOldCommands(line)),
    // Status changes are lines of their own; a runner's log has no line to redraw.
    progress: () => {},
    // Annotations escape their own text (line breaks as %0A): it cannot start a command, but the
    // old syntax acts anywhere in a line.
    warn: (message) => core.warning(noOldCommands(message)),
    fail: (message) => core.setFailed(noOldCommands(message)),
    inputName: (input) => `Input "${input}"`,
    inputSetting: (input, value) => `${input}: ${value}`,
    cancelledBy: "with the workflow",
    // The job's own temp folder: emptied after the job, and not in the checkout.
    filesDir: () => process.env.RUNNER_TEMP ?? ".",
    logLines: (title, lines) => {
      if (group !== title) {
        if (group !== undefined) core.endGroup();
        core.startGroup(noOldCommands(title));
        group = title;
      }
      printUntrusted(lines.map((line) => line.text));
    },
    endLogs: () => {
      if (group !== undefined) core.endGroup();
      group = undefined;
    },
    outputs: (values) => {
      for (const [name, value] of Object.entries(values)) core.setOutput(name, value.text);
    },
    report: (report) => summary(renderSummary(report)),
    rawReport: ({ markdown }) => summary(markdown),
  };
}
