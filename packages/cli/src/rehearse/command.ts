import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ActionShape,
  type JobRecord,
  jobOrder,
  readWorkflow,
  rehearseJob,
  triggersOf,
  WorkflowError,
} from "@cwp/workflow-rehearsal";
import { type Command, Option } from "commander";
import actions from "../actions.generated.json" with { type: "json" };
import { EXIT_CODES } from "../exit-codes.js";
import { EVENTS, type EventName, eventFor, whereFromGit } from "./event.js";
import { REHEARSAL_SPEED, RehearsalInputError, startRehearsalPlatform } from "./platform.js";
import { RehearsalPrinter } from "./printer.js";
import { type CwpStepResult, cwpStepRunner } from "./step-runner.js";

// `cwp rehearse WORKFLOW_FILE`: a workflow's jobs run as written, locally, before a push. Our
// actions' steps run on the CLI's engine against the emulator (or --api-url); other steps are
// listed with what they would get. Exit 0 when every job that runs would pass, 1 when one would
// fail or the workflow has a finding, 2 for bad input.

interface Flags {
  job?: string;
  event: string;
  eventPayload?: string;
  input: Record<string, string>;
  secret: Record<string, string>;
  var: Record<string, string>;
  world?: string;
  apiUrl?: string;
  speed: string;
  ref?: string;
  sha?: string;
}

/** `--secret NAME=VALUE`, repeatable: each into the flag's record, refusing what is not NAME=VALUE. */
function keyValue(flag: string, refuse: (message: string) => never) {
  return (value: string, previous: Record<string, string> = {}) => {
    const at = value.indexOf("=");
    if (at <= 0) refuse(`error: --${flag} takes NAME=VALUE (got a value without a name and "=")`);
    return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
  };
}

/** Our actions' inputs and outputs, from their action.yml (all of them: a runner knows them all). */
const SHAPES: Record<string, ActionShape> = Object.fromEntries(
  Object.entries(
    actions as Record<string, { inputs: ActionShape["inputs"]; outputs: Record<string, string> }>,
  ).map(([name, metadata]) => [name, { inputs: metadata.inputs, outputs: Object.keys(metadata.outputs) }]),
);

export function addRehearseCommand(cwp: Command, setExitCode: (code: number) => void): void {
  const command = cwp
    .command("rehearse")
    .argument("<workflow-file>", "the workflow to rehearse, e.g. .github/workflows/deploy.yml")
    .description(
      "Rehearse a workflow's jobs locally: if: conditions, env, expressions and outputs as a runner has them; our actions' steps run against the emulator (or --api-url), other steps are listed with what they would get.",
    )
    .showHelpAfterError("Run 'cwp rehearse --help' for its flags.");
  const refuse = (message: string): never => command.error(message, { exitCode: EXIT_CODES.input });
  command
    .option("--job <name>", "rehearse only this job (default: every job, each after those it needs)")
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
      {},
    )
    .option(
      "--secret <name=value>",
      "a secret (secrets.NAME), masked in everything printed; repeat for more",
      keyValue("secret", refuse),
      {},
    )
    .option(
      "--var <name=value>",
      "a configuration variable (vars.NAME); repeat for more",
      keyValue("var", refuse),
      {},
    )
    .option(
      "--world <file>",
      "the emulator's world file: your projects, services, jobs, addons, backups and templates",
    )
    .option(
      "--api-url <url>",
      "rehearse against this platform instead of the emulator (the token: --secret, or CWP_API_TOKEN)",
    )
    .option("--speed <n>", "the emulator's virtual seconds per real second", String(REHEARSAL_SPEED))
    .option("--ref <ref>", "the branch or tag the event is for (default: the clone's branch)")
    .option("--sha <sha>", "the commit the event is for (default: the clone's HEAD)")
    .action(async (file: string, flags: Flags) => {
      try {
        setExitCode(await rehearseFile(file, flags));
      } catch (error) {
        if (!(error instanceof WorkflowError || error instanceof RehearsalInputError)) throw error;
        process.stderr.write(`error: ${error.message}\n`);
        setExitCode(EXIT_CODES.input);
      }
    });
}

async function rehearseFile(file: string, flags: Flags): Promise<number> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new RehearsalInputError(`${file}: cannot be read (${error.code ?? error.message})`);
  });
  const workflow = readWorkflow(text, file);
  const order = jobOrder(workflow, file);
  const triggers = triggersOf(workflow);
  if (!triggers.includes(flags.event))
    throw new RehearsalInputError(
      `${file} does not run on ${flags.event} (its on: ${triggers.join(", ") || "nothing"}); rehearse it with --event ${triggers.find((t) => (EVENTS as readonly string[]).includes(t)) ?? "push"}`,
    );
  if (flags.job !== undefined && !order.includes(flags.job))
    throw new RehearsalInputError(`${file} has no job ${flags.job}; its jobs: ${order.join(", ")}`);
  const speed = Number(flags.speed);
  if (!(Number.isFinite(speed) && speed > 0))
    throw new RehearsalInputError(`--speed must be a number above 0 (got ${JSON.stringify(flags.speed)})`);
  const over = flags.eventPayload === undefined ? {} : await readPayload(flags.eventPayload);
  const git = whereFromGit();
  const where = {
    ...git,
    ...(flags.sha !== undefined ? { sha: flags.sha } : {}),
    ...(flags.ref !== undefined
      ? { ref: flags.ref.startsWith("refs/") ? flags.ref : `refs/heads/${flags.ref}` }
      : {}),
  };
  const event = eventFor(flags.event as EventName, where, flags.input, over);
  const platform = await startRehearsalPlatform({
    ...(flags.apiUrl !== undefined ? { apiUrl: flags.apiUrl } : {}),
    ...(flags.world !== undefined ? { world: flags.world } : {}),
    speed,
  });
  const folder = await mkdtemp(join(tmpdir(), "cwp-rehearsal-"));
  const printer = new RehearsalPrinter(process.stdout, process.env, [
    ...Object.values(flags.secret),
    ...(platform.token ? [platform.token] : []),
    ...(process.env.CWP_API_TOKEN ? [process.env.CWP_API_TOKEN] : []),
  ]);
  printer.heading(
    `Rehearsing ${file}: ${event.name} of ${event.ref} at ${event.sha.slice(0, 12)}, in ${where.repository}`,
  );
  printer.line(`  on ${platform.description}; files the steps write go to ${folder}`);
  printer.line("");
  const runStep = cwpStepRunner({
    platform,
    event,
    repository: where.repository,
    folder,
    onLine: (line) => printer.stepLine(line),
  });
  const done = new Map<string, JobRecord<CwpStepResult>>();
  try {
    for (const name of flags.job !== undefined ? [flags.job] : order) {
      printer.heading(`job ${name}`);
      const record = await rehearseJob(
        {
          workflow,
          file,
          event,
          repository: where.repository,
          secrets: flags.secret,
          vars: flags.var,
          inputs: flags.input,
          token: flags.secret.GITHUB_TOKEN ?? "",
          actions: SHAPES,
          runStep,
          onStepStart: (step) => printer.stepStart(step, platform.url),
          onStepEnd: (step) => printer.stepEnd(step),
        },
        name,
        done,
      );
      done.set(name, record);
      printer.job(record);
    }
  } finally {
    await platform.close();
  }
  const records = [...done.values()];
  const failed = records.filter((r) => !r.success);
  printer.line(
    failed.length === 0
      ? `Every job that runs for this ${event.name} would pass (${records.filter((r) => r.ran).length} of ${records.length} run).`
      : `${failed.length} job(s) would fail: ${failed.map((r) => r.job).join(", ")}.`,
  );
  return failed.length === 0 ? EXIT_CODES.success : EXIT_CODES.failed;
}

async function readPayload(file: string): Promise<Record<string, unknown>> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new RehearsalInputError(`--event-payload ${file}: cannot be read (${error.code ?? error.message})`);
  });
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error("not an object");
    return value as Record<string, unknown>;
  } catch (error) {
    throw new RehearsalInputError(
      `--event-payload ${file}: must be a JSON object (${(error as Error).message})`,
    );
  }
}
