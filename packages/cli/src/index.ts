import { program } from "./program.js";

await program((code) => {
  process.exitCode = code;
}).parseAsync(process.argv);
