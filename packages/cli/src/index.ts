import { CommanderError } from "commander";
import { OPERATIONS } from "./operations.js";
import { program } from "./program.js";
import { printJsonRefusal } from "./terminal.js";

// A reader that goes away (`cwp usage-report --help | head`, `cwp run-job ... | grep -m1 Started`,
// and stderr's with `2>&1`) ends what is written, never the process with an EPIPE trace: for every
// command, help and version among them. An operation goes on waiting (a migration is not cut
// because a pipe closed) and its exit code still says how its work ended; only a signal cancels.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

try {
  await program((code) => {
    process.exitCode = code;
  }).parseAsync(process.argv);
} catch (error) {
  // Commander has printed what it refused (or the help) on stderr; the exit code is what is left
  // to give, and with --json the refusal as the one JSON object on stdout.
  if (!(error instanceof CommanderError)) throw error;
  process.exitCode = error.exitCode;
  if (error.exitCode !== 0 && process.argv.includes("--json")) {
    const operation = process.argv.slice(2).find((word) => Object.hasOwn(OPERATIONS, word));
    const outputs = operation === undefined ? [] : Object.keys(OPERATIONS[operation]?.metadata.outputs ?? {});
    printJsonRefusal(error.message.replace(/^error: /, ""), outputs);
  }
}
