import { type Command, Option } from "commander";
import { EXIT_CODES } from "../exit-codes.js";
import { printJsonRefusal, safeText } from "../terminal.js";
import { GITHUB_API } from "./action-source.js";
import { EVENTS } from "./event-payloads.js";
import type { Flags } from "./flags.js";
import { RehearsalInputError } from "./input-error.js";

// `cwp rehearse WORKFLOW_FILE`: a workflow's jobs run as GitHub runs them, locally, before a push:
// read and checked by GitHub's own parser, every expression by GitHub's evaluator
// (@cwp/workflow-rehearsal, loaded only for this command: the other commands start as they did).
// Our actions' steps run on the CLI's engine against the emulator (or --api-url); `run:` steps
// with --run-shell; other steps are listed with what they would get. Exit 0 when every job that
// runs would pass, 1 when one would fail or the workflow has a finding, 2 for bad input (a
// workflow GitHub would refuse, with its message, line and column).

/**
 * Virtual seconds per real second by default: a rehearsal checks what a workflow does, not how
 * long the work takes, so a ten-minute build ends in ten seconds.
 */
export const REHEARSAL_SPEED = 60;

/** `--input NAME=VALUE`, repeatable: each into the flag's record, refusing what is not NAME=VALUE. */
function keyValue(flag: string, refuse: (message: string) => never, fromEnvironment = false) {
  return (value: string, previous: Record<string, string> = {}) => {
    const at = value.indexOf("=");
    if (at < 0 && fromEnvironment) {
      // `--secret NAME`: its value from the environment, so it is on no command line. What names
      // no variable is not echoed: it may be a value pasted without its name.
      const named = /^[A-Za-z_]\w*$/.test(value);
      const fromEnv = named ? process.env[value] : undefined;
      if (fromEnv === undefined)
        refuse(
          `error: --${flag} takes NAME=VALUE, or the NAME of an environment variable that holds it (${named ? "no such variable is set" : "not a name"})`,
        );
      return { ...previous, [value]: fromEnv as string };
    }
    if (at <= 0) refuse(`error: --${flag} takes NAME=VALUE (got a value without a name and "=")`);
    return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
  };
}

export function addRehearseCommand(cwp: Command, setExitCode: (code: number) => void): void {
  const command = cwp
    .command("rehearse")
    .argument(
      "[workflow-file]",
      "the workflow to rehearse, e.g. .github/workflows/deploy.yml (default: every workflow of the clone's .github/workflows the event starts, with one verdict for the event)",
    )
    .description(
      "Rehearse a workflow's jobs locally, as GitHub runs them: read by GitHub's own parser, if: conditions, env, expressions, matrices and outputs as a runner has them; our actions' steps run against the emulator (or --api-url), run: steps with --run-shell, other steps are listed with what they would get.",
    )
    .showHelpAfterError("Run 'cwp rehearse --help' for its flags.");
  const refuse = (message: string): never => command.error(message, { exitCode: EXIT_CODES.input });
  command
    .option("--job <name>", "rehearse only this job, after the jobs it needs (default: every job)")
    .addOption(
      new Option("--event <name>", "the event the workflow runs for").choices(EVENTS).default("push"),
    )
    .option(
      "--event-payload <file>",
      'JSON laid over the event\'s payload, e.g. {"action": "closed", "pull_request": {"number": 42}}',
    )
    .option(
      "--input <name=value>",
      "a workflow_dispatch input (inputs.NAME); repeat for more",
      keyValue("input", refuse),
    )
    .option(
      "--secret <name[=value]>",
      "a secret (secrets.NAME), masked in everything printed; NAME alone takes it from the environment; repeat for more",
      keyValue("secret", refuse, true),
    )
    .option("--secret-file <file>", "secrets from a dotenv file (NAME=VALUE lines), as --secret")
    .option(
      "--var <name=value>",
      "a configuration variable (vars.NAME); repeat for more",
      keyValue("var", refuse),
    )
    .option(
      "--world <file>",
      "the emulator's world file: your projects, services, jobs, addons, backups and templates",
    )
    .option(
      "--api-url <url>",
      "rehearse against this platform instead of the emulator (each step's token as the workflow gives it: --secret NAME, e.g. --secret CWP_API_TOKEN from your environment)",
    )
    .option(
      "--github-api-url <url>",
      `where other repositories' actions are downloaded from (default: GITHUB_API_URL, else ${GITHUB_API}); GITHUB_TOKEN in the environment is sent with the download`,
    )
    .option(
      "--tool-cache <dir>",
      "the tool cache (RUNNER_TOOL_CACHE) the steps find and keep tools in, for teams that keep one (default: cwp's own, ~/.cache/cwp/tool-cache, kept between rehearsals)",
    )
    .option(
      "--no-cache",
      "start from an empty cache: what actions/cache saves and restores is this rehearsal's only (default: the repository's caches in ~/.cache/cwp/caches, kept between rehearsals)",
    )
    .option("--speed <n>", "the emulator's virtual seconds per real second", String(REHEARSAL_SPEED))
    .option(
      "--jobs <n>",
      "how many jobs run at a time, each on a runner of its own, as soon as the jobs it needs have ended (default: this machine's cores)",
    )
    .option(
      "--job-lines <how>",
      "with jobs side by side: grouped (each job's lines together as it ends) or prefixed (each line as it comes, after its job's name)",
      "grouped",
    )
    .option("--ref <ref>", "the branch or tag the event is for (default: the clone's branch)")
    .option("--sha <sha>", "the commit the event is for (default: the clone's HEAD)")
    .option(
      "--json",
      "one JSON document on stdout: each job's verdict, the steps not rehearsed and why, findings, warnings, outputs (the steps' lines go to stderr)",
    )
    .option(
      "--run-shell",
      "run the run: steps in their shell (shell:, defaults.run), and local JavaScript actions with the Node running cwp, as a runner does: in a copy of the clone (tracked files and untracked ones git does not ignore), with a HOME and temporary folders of the rehearsal's, timeout-minutes kept, secrets and ::add-mask:: values masked. Not a sandbox: a script can still reach the network, and files outside the copy by their absolute path (default: list them, not run)",
    )
    .action(async (file: string | undefined, flags: Flags) => {
      const [engine, { rehearseEvent, rehearseFile }] = await Promise.all([
        import("@cwp/workflow-rehearsal"),
        import("./rehearsal.js"),
      ]);
      try {
        setExitCode(
          await (file === undefined ? rehearseEvent(flags, engine) : rehearseFile(file, flags, engine)),
        );
      } catch (error) {
        if (!(error instanceof engine.WorkflowError || error instanceof RehearsalInputError)) throw error;
        process.stderr.write(`error: ${safeLines(error.message)}\n`);
        if (flags.json) printJsonRefusal(error.message, []);
        setExitCode(EXIT_CODES.input);
      }
    });
}

/** GitHub's messages, one line each, inert on a terminal: the workflow's text in them acts on nothing. */
const safeLines = (text: string) => text.split("\n").map(safeText).join("\n");
