import type { ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseEnv } from "node:util";
import type { ActionShape, JobRecord } from "@cwp/workflow-rehearsal";
import { type Command, Option } from "commander";
import actions from "../actions.generated.json" with { type: "json" };
import { EXIT_CODES } from "../exit-codes.js";
import { jsonLine, printJsonRefusal, safeText } from "../terminal.js";
import { actionDownloader, GITHUB_API, gitHubApiUrl } from "./action-source.js";
import { cwpCacheFolder } from "./cwp-cache.js";
import { EVENTS, type EventName, eventFor, mergeJson, whereFromGit } from "./event.js";
import { REHEARSAL_SPEED, RehearsalInputError, startRehearsalPlatform } from "./platform.js";
import { RehearsalPrinter } from "./printer.js";
import { type CwpStepResult, cwpStepRunner } from "./step-runner.js";
import { rehearsalJson, rehearsalVerdict } from "./verdict.js";

// `cwp rehearse WORKFLOW_FILE`: a workflow's jobs run as GitHub runs them, locally, before a push:
// read and checked by GitHub's own parser, every expression by GitHub's evaluator
// (@cwp/workflow-rehearsal, loaded only for this command: the other commands start as they did).
// Our actions' steps run on the CLI's engine against the emulator (or --api-url); `run:` steps
// with --run-shell; other steps are listed with what they would get. Exit 0 when every job that
// runs would pass, 1 when one would fail or the workflow has a finding, 2 for bad input (a
// workflow GitHub would refuse, with its message, line and column).

interface Flags {
  job?: string;
  event: string;
  eventPayload?: string;
  input?: Record<string, string>;
  secret?: Record<string, string>;
  secretFile?: string;
  var?: Record<string, string>;
  world?: string;
  apiUrl?: string;
  githubApiUrl?: string;
  toolCache?: string;
  cache: boolean;
  speed: string;
  ref?: string;
  sha?: string;
  runShell?: boolean;
  json?: boolean;
}

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
    .action(async (file: string, flags: Flags) => {
      const engine = await import("@cwp/workflow-rehearsal");
      try {
        setExitCode(await rehearseFile(file, flags, engine));
      } catch (error) {
        if (!(error instanceof engine.WorkflowError || error instanceof RehearsalInputError)) throw error;
        process.stderr.write(`error: ${safeLines(error.message)}\n`);
        if (flags.json) printJsonRefusal(error.message, []);
        setExitCode(EXIT_CODES.input);
      }
    });
}

type Engine = typeof import("@cwp/workflow-rehearsal");

/** GitHub's messages, one line each, inert on a terminal: the workflow's text in them acts on nothing. */
const safeLines = (text: string) => text.split("\n").map(safeText).join("\n");

async function readSecrets(flags: Flags): Promise<Record<string, string>> {
  if (flags.secretFile === undefined) return flags.secret ?? {};
  const text = await readFile(flags.secretFile, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new RehearsalInputError(
      `--secret-file ${flags.secretFile}: cannot be read (${error.code ?? error.message})`,
    );
  });
  const fromFile = Object.entries(parseEnv(text)).filter((e): e is [string, string] => e[1] !== undefined);
  return { ...Object.fromEntries(fromFile), ...flags.secret };
}

async function rehearseFile(file: string, flags: Flags, engine: Engine): Promise<number> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new RehearsalInputError(`${file}: cannot be read (${error.code ?? error.message})`);
  });
  const where = whereFromGit(dirname(resolve(file)), { ref: flags.ref, sha: flags.sha });
  // A job's reusable workflow of the same repository is read from the clone that holds this one.
  const workflow = await engine.readWorkflow(text, file, { folder: where.workspace });
  const triggers = engine.triggersOf(workflow);
  if (!triggers.includes(flags.event))
    throw new RehearsalInputError(
      `${file} does not run on ${flags.event} (its on: ${triggers.join(", ") || "nothing"}); rehearse it with ${triggers
        .filter((t) => (EVENTS as readonly string[]).includes(t))
        .map((t) => `--event ${t}`)
        .join(" or ")}`,
    );
  const order =
    flags.job === undefined
      ? engine.jobOrder(workflow)
      : [...engine.neededBy(workflow, flags.job), flags.job];
  const jobs = engine.jobOrder(workflow).filter((id) => order.includes(id));
  const speed = Number(flags.speed);
  if (!(Number.isFinite(speed) && speed > 0))
    throw new RehearsalInputError(`--speed must be a number above 0 (got ${JSON.stringify(flags.speed)})`);
  const githubApi = gitHubApiUrl(flags.githubApiUrl, process.env);
  const given = flags.eventPayload === undefined ? {} : await readPayload(flags.eventPayload);
  // A workflow_run is of a workflow its on: names: the first, unless the payload says another.
  const ranWorkflow = (workflow.events.workflow_run as { workflows?: string[] } | undefined)?.workflows?.[0];
  const over =
    flags.event === "workflow_run" && ranWorkflow !== undefined
      ? mergeJson({ workflow_run: { name: ranWorkflow }, workflow: { name: ranWorkflow } }, given)
      : given;
  const secrets = await readSecrets(flags);
  // The repository, branch and commit of the clone that holds the workflow.
  const event = eventFor(flags.event as EventName, where, flags.input ?? {}, over);
  const payload = event.payload as {
    action?: string;
    pull_request?: { base?: { ref?: string } };
    merge_group?: { base_ref?: string };
    workflow_run?: { name?: string; head_branch?: string };
  };
  const verdict = engine.runsFor(workflow.events, {
    name: event.name,
    ref: event.ref,
    // The branch its branches filter reads: a pull request's base, a merge group's base, a run's head.
    baseRef:
      payload.pull_request?.base?.ref ??
      payload.merge_group?.base_ref?.replace(/^refs\/heads\//, "") ??
      payload.workflow_run?.head_branch,
    action: payload.action,
    workflow: payload.workflow_run?.name,
    changedFiles: where.changedFiles,
  });
  const masks = new engine.Masks();
  masks.addAll([
    ...Object.values(secrets),
    ...(process.env.CWP_API_TOKEN ? [process.env.CWP_API_TOKEN] : []),
    ...(process.env.GITHUB_TOKEN ? [process.env.GITHUB_TOKEN] : []),
  ]);
  // With --json, stdout holds the one JSON document: what a person reads goes to stderr.
  const printer = new RehearsalPrinter(
    flags.json ? process.stderr : process.stdout,
    process.env,
    masks,
    engine.unexpectedInputs,
  );
  const folder = await mkdtemp(join(tmpdir(), "cwp-rehearsal-"));
  // --run-shell: every step in a copy of the clone, with a HOME and temporary folders of the
  // rehearsal's; the user's clone and home are never a step's to write.
  const folders = flags.runShell
    ? await engine.prepareRunnerFolders(
        where.workspace,
        folder,
        where.repository,
        resolve(flags.toolCache ?? cwpCacheFolder(process.env, "tool-cache")),
      )
    : undefined;
  const children = new Set<ChildProcess>();
  const groups = new engine.ProcessGroups();
  const options = {
    workflow,
    event,
    repository: where.repository,
    workspace: folders?.workspace ?? where.workspace,
    temp: folders?.temp ?? folder,
    secrets,
    vars: flags.var ?? {},
    ...(flags.input !== undefined || event.name === "workflow_dispatch" ? { inputs: flags.input ?? {} } : {}),
    token: secrets.GITHUB_TOKEN ?? "",
    actions: SHAPES,
  };
  printer.heading(
    `Rehearsing ${file} (${engine.runName({ ...options, runStep: async () => ({ code: 0, outputs: {} }) })}): ${event.name} of ${event.ref} at ${event.sha.slice(0, 12)}, in ${where.repository}`,
  );
  for (const note of verdict.notes) printer.line(`  note: ${note}`);
  if (!verdict.runs) {
    printer.line(`This ${event.name} would not start the workflow: nothing runs, nothing is rehearsed.`);
    if (flags.json) process.stdout.write(jsonLine(rehearsalJson(file, event.name, [])));
    return EXIT_CODES.success;
  }
  printer.line(
    `  made up (only a real run has them): ${Object.entries(engine.madeUp(event))
      .map(([k, v]) => `${k}=${v}`)
      .join(", ")}`,
  );
  const platform = await startRehearsalPlatform({
    ...(flags.apiUrl !== undefined ? { apiUrl: flags.apiUrl } : {}),
    ...(flags.world !== undefined ? { world: flags.world } : {}),
    speed,
  });
  masks.addAll(platform.token ? [platform.token] : []);
  printer.line(`  on ${platform.description}; files the steps write go to ${folder}`);
  if (folders) {
    printer.line(
      `  run: each job runs on a runner of its own, in ${folders.copied ? `a copy of ${where.workspace}` : "an empty workspace (the workflow is in no git clone)"}: ${folders.workspace}, with HOME ${folders.home}, both made anew for each job; the tool cache ${folders.toolCache}`,
    );
    // Named, never shown: a proxy's URL may carry its credentials.
    const network = Object.keys(engine.machineNetwork());
    printer.line(
      `  network: ${network.length > 0 ? `the steps get this machine's ${network.join(", ")}` : "this machine sets none of the network settings the steps would get"}; nothing else of its environment`,
    );
  }
  printer.line("");
  const cleanUp = async () => {
    await groups.endAll();
    if (folders) await engine.removeRunnerTemp(folders);
  };
  const stop = stopper(children, groups, async () => {
    await cleanUp();
    await platform.close();
  });
  const onLine = (line: string) => printer.stepLine(line);
  const downloads = actionDownloader(engine, githubApi, process.env, onLine);
  // GitHub's Results service for the actions --run-shell runs: the run's artifacts in this folder,
  // the repository's caches in cwp's own (or this rehearsal's alone, --no-cache).
  const defaultBranch = (event.payload as { repository?: { default_branch?: string } }).repository
    ?.default_branch;
  const results = folders
    ? await engine.startResultsService({
        artifacts: join(folder, "artifacts"),
        caches: flags.cache
          ? join(
              cwpCacheFolder(process.env, "caches"),
              ...where.repository.split("/").map((part) => encodeURIComponent(part)),
            )
          : join(folder, "caches"),
        ref: event.ref,
        defaultRef: defaultBranch ? `refs/heads/${defaultBranch}` : event.ref,
      })
    : undefined;
  const done = new Map<string, JobRecord<CwpStepResult>[]>();
  const keepSummary = summaryKeeper(folder, masks);
  try {
    for (const id of jobs) {
      const records = await engine.rehearseJob(
        {
          ...options,
          runStep: cwpStepRunner({
            platform,
            event,
            repository: where.repository,
            folder: folders?.workspace ?? folder,
            temp: folders?.temp ?? folder,
            ...(folders ? { home: folders.home } : {}),
            onLine,
            children,
          }),
          ...(folders
            ? {
                runScript: engine.scriptRunner({
                  event,
                  folders,
                  masks,
                  onLine,
                  groups,
                }),
                ...(folders.copied
                  ? {
                      checkout: engine.checkoutRunner({
                        clone: where.workspace,
                        folders,
                        repository: where.repository,
                        onLine,
                      }),
                    }
                  : {}),
              }
            : {}),
          ...(folders ? { startJob: () => engine.freshJobFolders(folders) } : {}),
          downloadAction: (action) => downloads.download(action, folders?.actions),
          ...(results
            ? {
                actionsRuntime: (job: string) => {
                  const variables = results.variablesFor(job);
                  masks.addAll([variables.ACTIONS_RUNTIME_TOKEN]);
                  return variables;
                },
              }
            : {}),
          endJob: () => groups.endAll(),
          signal: stop.signal,
          platformNow: platform.clock.now,
          onJobStart: (job) => printer.heading(`job ${job.title}`),
          onStepStart: (step) => printer.stepStart(step, platform.url),
          onStepEnd: (step) => printer.stepEnd(step),
        },
        id,
        done,
      );
      done.set(id, records);
      for (const record of records) printer.job(record, await keepSummary(record));
    }
  } finally {
    stop.dispose();
    await cleanUp();
    await platform.close();
    await results?.close();
  }
  // The run's artifacts, as its page on GitHub lists them.
  for (const artifact of results?.artifacts() ?? [])
    printer.line(
      `artifact ${safeText(artifact.name)}: ${artifact.size} bytes, made by ${safeText(artifact.job)} (kept in ${artifact.file})`,
    );
  const records = [...done.values()].flat();
  const reached = rehearsalVerdict(records);
  const { failed, notRehearsed: unrehearsed } = reached;
  const exitCode = stop.exitCode() ?? reached.exitCode;
  printer.line(
    stop.exitCode() !== undefined
      ? `Cancelled: what GitHub runs after a cancel ran (${records.filter((r) => r.ran).length} of ${records.length} job(s) run).`
      : failed.length > 0
        ? `${failed.length} job(s) would fail: ${failed.map((r) => r.job).join(", ")}.`
        : `Every job that runs for this ${event.name} would pass${unrehearsed > 0 ? ` as far as rehearsed (${unrehearsed} step(s) or job(s) not rehearsed, named above)` : ""} (${records.filter((r) => r.ran).length} of ${records.length} run).`,
  );
  if (flags.json)
    process.stdout.write(
      jsonLine(rehearsalJson(file, event.name, records, exitCode), (_, value) =>
        typeof value === "string" ? masks.apply(value) : value,
      ),
    );
  return exitCode;
}

/** How long the steps GitHub runs after a cancel (`always()`, `cancelled()`) get here: ours, a bound. */
const CLEAN_UP_MS = 5 * 60_000;

/**
 * A first SIGINT or SIGTERM is a cancel, as GitHub's: every step's process and process group is
 * ended (each of ours aborts what it started, as a cancelled step does), and the rehearsal goes on
 * with what GitHub runs after a cancel (`if: always()`, `cancelled()`), within CLEAN_UP_MS; then it
 * exits 130 (143 for SIGTERM). A second signal, or the bound, ends everything within 5 s and exits
 * at once. A closed stdout (`| head`) ends it quietly, at once.
 */
function stopper(
  children: Set<ChildProcess>,
  groups: { endAll(): Promise<void>; killAll(): void },
  close: () => Promise<void>,
): { dispose(): void; signal: AbortSignal; exitCode(): number | undefined } {
  const cancel = new AbortController();
  let cancelCode: number | undefined;
  let stopping = false;
  /** Ends what runs now: each of ours gets SIGINT, each script's group SIGINT, SIGTERM, SIGKILL. */
  const endSteps = async () => {
    const ending = [...children].map((child) => new Promise((resolve) => child.once("close", resolve)));
    for (const child of children) child.kill("SIGINT");
    await Promise.race([
      Promise.all([...ending, groups.endAll()]),
      new Promise((resolve) => setTimeout(resolve, 4_500)),
    ]);
  };
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await endSteps();
    for (const child of children) child.kill("SIGKILL");
    groups.killAll();
    await close().catch(() => {});
    process.exit(code);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === "SIGINT" ? 130 : 143;
    if (cancelCode !== undefined) return void stop(cancelCode);
    cancelCode = code;
    process.stderr.write(
      `cwp rehearse: cancelled (${signal}); running what GitHub runs after a cancel (if: always(), cancelled()). Again to stop at once.\n`,
    );
    cancel.abort();
    void endSteps();
    setTimeout(() => void stop(code), CLEAN_UP_MS).unref();
  };
  const onClosed = (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") void stop(0);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.stdout.on("error", onClosed);
  return {
    signal: cancel.signal,
    exitCode: () => cancelCode,
    dispose() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}

/**
 * A job's summary, kept in the rehearsal's folder as GitHub keeps it on the run's page: one
 * Markdown file a run of a job, named by the order it ran in and its id (a job id is letters,
 * digits, `-` and `_`: never a path of the workflow's making), masked.
 */
function summaryKeeper(folder: string, masks: { apply(text: string): string }) {
  let kept = 0;
  return async (record: JobRecord<CwpStepResult>): Promise<string | undefined> => {
    if (record.summary === undefined) return undefined;
    const file = join(folder, "summaries", `${String(++kept).padStart(2, "0")}-${record.id}.md`);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, masks.apply(record.summary), { mode: 0o600 });
    return file;
  };
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
