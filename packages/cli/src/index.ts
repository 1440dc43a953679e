import { CommanderError } from "commander";
import { program } from "./program.js";

try {
  await program((code) => {
    process.exitCode = code;
  }).parseAsync(process.argv);
} catch (error) {
  // Commander has printed what it refused (or the help); the exit code is what is left to give.
  if (!(error instanceof CommanderError)) throw error;
  process.exitCode = error.exitCode;
}
