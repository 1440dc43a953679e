import type { ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { parseEnv } from "node:util";
import type { ActionShape, JobFolders, JobRecord, RehearsalEvent } from "@cwp/workflow-rehearsal";
import actions from "../actions.generated.json" with { type: "json" };
import { EXIT_CODES } from "../exit-codes.js";
import { jsonLine, safeText } from "../terminal.js";
import { actionDownloader, gitHubApiUrl } from "./action-source.js";
import { changedFiles } from "./changed-files.js";
import { cwpCacheFolder, repositoryFolder } from "./cwp-cache.js";
import { EVENTS, type EventName, eventFor, mergeJson, type Where, whereFromGit } from "./event.js";
import { eventVerdict, type WorkflowOutcome } from "./event-verdict.js";
import type { Flags } from "./flags.js";
import { RehearsalInputError } from "./input-error.js";
import { startRehearsalPlatform } from "./platform.js";
import { RehearsalPrinter } from "./printer.js";
import { sideBySide } from "./side-by-side.js";
import { type CwpStepResult, cwpStepRunner } from "./step-runner.js";
import { type RehearsalJson, rehearsalJson, rehearsalVerdict } from "./verdict.js";

// A rehearsal, once `cwp rehearse`'s flags are read (command.ts): loaded only for that command,
// with the engine (@cwp/workflow-rehearsal), so that the other commands start without either.

type Engine = typeof import("@cwp/workflow-rehearsal");

/** Our actions' inputs and outputs, from their action.yml (all of them: a runner knows them all). */
const SHAPES: Record<string, ActionShape> = Object.fromEntries(
  Object.entries(
    actions as Record<string, { inputs: ActionShape["inputs"]; outputs: Record<string, string> }>,
  ).map(([name, metadata]) => [name, { inputs: metadata.inputs, outputs: Object.keys(metadata.outputs) }]),
);

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

/** What every workflow of one `cwp rehearse` shares: its flags' values, the masks on what it prints, where it prints. */
interface Shared {
  flags: Flags;
  engine: Engine;
  secrets: Record<string, string>;
  masks: InstanceType<Engine["Masks"]>;
  printer: RehearsalPrinter;
  speed: number;
  githubApi: string;
  /** JSON laid over each workflow's event payload (--event-payload). */
  given: Record<string, unknown>;
  /** The most jobs that run at a time (--jobs). */
  jobs: number;
}

async function sharedBy(flags: Flags, engine: Engine): Promise<Shared> {
  const speed = Number(flags.speed);
  if (!(Number.isFinite(speed) && speed > 0))
    throw new RehearsalInputError(`--speed must be a number above 0 (got ${JSON.stringify(flags.speed)})`);
  const jobs = flags.jobs === undefined ? availableParallelism() : Number(flags.jobs);
  if (!(Number.isInteger(jobs) && jobs > 0))
    throw new RehearsalInputError(
      `--jobs must be a whole number above 0 (got ${JSON.stringify(flags.jobs)})`,
    );
  if (flags.jobLines !== undefined && flags.jobLines !== "grouped" && flags.jobLines !== "prefixed")
    throw new RehearsalInputError(
      `--job-lines must be grouped or prefixed (got ${JSON.stringify(flags.jobLines)})`,
    );
  const githubApi = gitHubApiUrl(flags.githubApiUrl, process.env);
  const given = flags.eventPayload === undefined ? {} : await readPayload(flags.eventPayload);
  const secrets = await readSecrets(flags);
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
  return { flags, engine, secrets, masks, printer, speed, githubApi, given, jobs };
}

/** One workflow read by GitHub's parser, with the event as it would come to it and whether it starts it. */
interface Planned {
  file: string;
  workflow: Awaited<ReturnType<Engine["readWorkflow"]>>;
  where: Where;
  /** The `on:` events it names. */
  triggers: string[];
  event: RehearsalEvent;
  verdict: { runs: boolean; notes: string[] };
  /** The jobs to rehearse, in order (all, or --job and the jobs it needs). */
  jobs: string[];
}

/** Reads `file` (a WorkflowError for what GitHub would refuse) and decides whether the event starts it. */
async function plan(file: string, where: Where, shared: Shared): Promise<Planned> {
  const { engine, flags } = shared;
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new RehearsalInputError(`${file}: cannot be read (${error.code ?? error.message})`);
  });
  // A job's reusable workflow of the same repository is read from the clone that holds this one.
  const workflow = await engine.readWorkflow(text, file, { folder: where.workspace });
  const order =
    flags.job === undefined
      ? engine.jobOrder(workflow)
      : [...engine.neededBy(workflow, flags.job), flags.job];
  const jobs = engine.jobOrder(workflow).filter((id) => order.includes(id));
  // A workflow_run is of a workflow its on: names: the first, unless the payload says another.
  const ranWorkflow = (workflow.events.workflow_run as { workflows?: string[] } | undefined)?.workflows?.[0];
  const over =
    flags.event === "workflow_run" && ranWorkflow !== undefined
      ? mergeJson({ workflow_run: { name: ranWorkflow }, workflow: { name: ranWorkflow } }, shared.given)
      : shared.given;
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
    changedFiles: changedFiles(where.workspace, { ...event, baseRef: payload.pull_request?.base?.ref }),
  });
  return { file, workflow, where, triggers: engine.triggersOf(workflow), event, verdict, jobs };
}

/** The one JSON document of --json, every secret and token in it masked. */
const writeJson = (shared: Shared, document: unknown) =>
  process.stdout.write(
    jsonLine(document, (_, value) => (typeof value === "string" ? shared.masks.apply(value) : value)),
  );

/** `cwp rehearse FILE`: that workflow, which must run on the event (else bad input: the flag to give). */
export async function rehearseFile(file: string, flags: Flags, engine: Engine): Promise<number> {
  const where = whereFromGit(dirname(resolve(file)), { ref: flags.ref, sha: flags.sha });
  const shared = await sharedBy(flags, engine);
  const planned = await plan(file, where, shared);
  const { triggers } = planned;
  if (!triggers.includes(flags.event))
    throw new RehearsalInputError(
      `${file} does not run on ${flags.event} (its on: ${triggers.join(", ") || "nothing"}); rehearse it with ${triggers
        .filter((t) => (EVENTS as readonly string[]).includes(t))
        .map((t) => `--event ${t}`)
        .join(" or ")}`,
    );
  const { json } = await rehearseWorkflow(planned, shared);
  if (flags.json) writeJson(shared, json);
  return json.exitCode;
}

/**
 * `cwp rehearse` with no file: every workflow of the clone's .github/workflows (GitHub reads its
 * .yml and .yaml files, not its subfolders) that the event starts, one after another, and one
 * closing line for the event (event-verdict.ts).
 */
export async function rehearseEvent(flags: Flags, engine: Engine): Promise<number> {
  if (flags.job !== undefined)
    throw new RehearsalInputError(
      `--job names a job of one workflow: give the workflow's file too (cwp rehearse .github/workflows/ci.yml --job ${flags.job})`,
    );
  const where = whereFromGit(process.cwd(), { ref: flags.ref, sha: flags.sha });
  const folder = join(where.workspace, ".github", "workflows");
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    throw new RehearsalInputError(
      `${folder}: cannot be read (${error.code ?? error.message}); run cwp rehearse in a clone with workflows, or name a workflow file`,
    );
  });
  const files = names
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => relative(process.cwd(), join(folder, name)));
  if (files.length === 0)
    throw new RehearsalInputError(`${folder} holds no .yml or .yaml file: no workflow to rehearse`);
  const shared = await sharedBy(flags, engine);
  const { printer } = shared;
  const outcomes: WorkflowOutcome[] = [];
  const planned: Planned[] = [];
  for (const file of files) {
    try {
      const one = await plan(file, where, shared);
      if (!one.triggers.includes(flags.event))
        outcomes.push({ file, started: false, why: `its on: does not name ${flags.event}` });
      else if (!one.verdict.runs) outcomes.push({ file, started: false, why: one.verdict.notes.join("; ") });
      else planned.push(one);
    } catch (error) {
      if (!(error instanceof engine.WorkflowError)) throw error;
      outcomes.push({ file, started: true, refused: error.message });
    }
  }
  const event = { name: flags.event, ref: planned[0]?.event.ref ?? where.ref, sha: where.sha };
  printer.heading(
    `Rehearsing every workflow of ${where.repository} that this ${event.name} of ${event.ref} at ${event.sha.slice(0, 12)} starts: ${files.length - outcomes.filter((o) => !o.started).length} of ${files.length}`,
  );
  // The file names and GitHub's messages are the repository's text: one inert line each.
  for (const outcome of outcomes)
    if ("refused" in outcome) {
      printer.line(`  ${safeText(outcome.file)}: GitHub would refuse this workflow file, a failing check:`);
      for (const line of outcome.refused.split("\n")) printer.line(`    ${safeText(line)}`);
    } else if (!outcome.started)
      printer.line(`  ${safeText(outcome.file)}: not started (${safeText(outcome.why)})`);
  printer.line("");
  for (const one of planned) {
    const { json } = await rehearseWorkflow(one, shared);
    outcomes.push({ file: one.file, started: true, rehearsal: json });
    printer.line("");
    // A cancel ends the event's rehearsal: GitHub would have cancelled the runs it had started.
    if (json.verdict === "cancelled") break;
  }
  // In the order of the folder, as GitHub lists the workflows.
  outcomes.sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file));
  const verdict = eventVerdict(outcomes, event);
  printer.line(safeText(verdict.line));
  if (flags.json) writeJson(shared, verdict.json);
  return verdict.exitCode;
}

/**
 * A workflow's rehearsal: its jobs run as their needs allow (side-by-side.ts), its verdict printed;
 * the JSON of it for --json.
 */
async function rehearseWorkflow(planned: Planned, shared: Shared): Promise<{ json: RehearsalJson }> {
  const { file, workflow, where, event, verdict, jobs } = planned;
  const { flags, engine, secrets, masks, printer, speed, githubApi } = shared;
  const folder = await mkdtemp(join(tmpdir(), "cwp-rehearsal-"));
  // --run-shell: every step in a copy of the clone, with a HOME and temporary folders of the
  // rehearsal's; the user's clone and home are never a step's to write. Each job takes a runner
  // slot of the repository as it starts, the first free one (runner-slot.ts): the same paths in
  // every rehearsal, so that caches keyed by their paths come back as they do on GitHub.
  const runners = flags.runShell ? repositoryFolder(process.env, "runners", where.repository) : undefined;
  const toolCache = resolve(flags.toolCache ?? cwpCacheFolder(process.env, "tool-cache"));
  // The folders' layout as the opening line shows it, `<slot>` standing for a job's slot.
  const layout = runners
    ? await engine.prepareRunnerFolders(where.workspace, join(runners, "<slot>"), where.repository, toolCache)
    : undefined;
  const children = new Set<ChildProcess>();
  // Each job's process groups, ended as it ends; all of them on a cancel.
  const jobGroups = new Set<InstanceType<Engine["ProcessGroups"]>>();
  const groups = {
    endAll: async () => {
      await Promise.all([...jobGroups].map((g) => g.endAll()));
    },
    killAll: () => {
      for (const g of jobGroups) g.killAll();
    },
  };
  const options = {
    workflow,
    event,
    repository: where.repository,
    workspace: where.workspace,
    temp: folder,
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
    return { json: rehearsalJson(file, event.name, []) };
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
  const limit = Math.min(shared.jobs, jobs.length);
  if (layout) {
    printer.line(
      `  run: each job runs on a runner of its own, in ${layout.copied ? `a copy of ${where.workspace}` : "an empty workspace (the workflow is in no git clone)"}: ${layout.workspace}, with HOME ${layout.home}, both made anew for each job, where <slot> is the first runner slot free as the job starts (1 unless a job beside it or another rehearsal of ${where.repository} holds it): the same paths in every rehearsal; the tool cache ${layout.toolCache}`,
    );
    // Named, never shown: a proxy's URL may carry its credentials.
    const network = Object.keys(engine.machineNetwork());
    printer.line(
      `  network: ${network.length > 0 ? `the steps get this machine's ${network.join(", ")}` : "this machine sets none of the network settings the steps would get"}; nothing else of its environment`,
    );
  }
  if (limit > 1)
    printer.line(
      `  side by side: up to ${limit} jobs at a time (--jobs), each as soon as the jobs it needs have ended; ${flags.jobLines === "prefixed" ? "each line after its job's name" : "each job's lines printed together as it ends"}`,
    );
  printer.line("");
  // RUNNER_TEMP holds the scripts, secrets among their values: removed however the rehearsal ends.
  const temps = new Set<JobFolders>();
  const stop = stopper(children, groups, async () => {
    await groups.endAll();
    await Promise.all([...temps].map((f) => engine.removeRunnerTemp(f)));
    await platform.close();
  });
  const downloads = actionDownloader(engine, githubApi, process.env, (line) => printer.stepLine(line));
  // GitHub's Results service for the actions --run-shell runs: the run's artifacts in this folder,
  // the repository's caches in cwp's own (or this rehearsal's alone, --no-cache).
  const defaultBranch = (event.payload as { repository?: { default_branch?: string } }).repository
    ?.default_branch;
  const results = runners
    ? await engine.startResultsService({
        artifacts: join(folder, "artifacts"),
        caches: flags.cache
          ? repositoryFolder(process.env, "caches", where.repository)
          : join(folder, "caches"),
        ref: event.ref,
        defaultRef: defaultBranch ? `refs/heads/${defaultBranch}` : event.ref,
      })
    : undefined;
  const done = new Map<string, JobRecord<CwpStepResult>[]>();
  const keepSummary = summaryKeeper(folder, masks);
  const seconds = new Map<string, number>();
  // Slots are taken one at a time, in the order the jobs start (the workflow's, for jobs that start
  // together): the same job gets the same slot, and the same HOME, in the next rehearsal.
  let slotsTaken: Promise<unknown> = Promise.resolve();
  const takeSlot = (base: string) => {
    const taking = slotsTaken.then(() => engine.takeRunnerSlot(base));
    slotsTaken = taking.catch(() => {});
    return taking;
  };
  /** One job (each of its matrix runs in turn) on a runner slot of its own, its lines on a printer of its own when beside others. */
  const rehearseOne = async (id: string) => {
    const started = performance.now();
    const slot = runners ? await takeSlot(runners) : undefined;
    const folders = slot
      ? await engine.prepareRunnerFolders(where.workspace, slot.folder, where.repository, toolCache)
      : undefined;
    const jobPrinter = limit > 1 ? printer.forJob(id, flags.jobLines === "prefixed") : undefined;
    const out = jobPrinter?.printer ?? printer;
    const onLine = (line: string) => out.stepLine(line);
    const own = new engine.ProcessGroups();
    jobGroups.add(own);
    if (folders) temps.add(folders);
    try {
      const records = await engine.rehearseJob(
        {
          ...options,
          workspace: folders?.workspace ?? where.workspace,
          temp: folders?.temp ?? folder,
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
                runScript: engine.scriptRunner({ event, folders, masks, onLine, groups: own }),
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
                startJob: () => engine.freshJobFolders(folders),
              }
            : {}),
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
          endJob: () => own.endAll(),
          signal: stop.signal,
          platformNow: platform.clock.now,
          onJobStart: (job) => {
            out.heading(`job ${job.title}`);
            // Another rehearsal's slot passed over: this job's HOME and workspace are other paths.
            for (const held of slot?.busy.filter((b) => b.pid !== process.pid) ?? [])
              out.line(
                `    note: another rehearsal of ${where.repository} (process ${held.pid}) holds runner slot ${held.number}: this job runs in slot ${slot?.number}, whose HOME and workspace are other paths, so caches saved under them there are not restored here`,
              );
          },
          onStepStart: (step) => out.stepStart(step, platform.url),
          onStepEnd: (step) => out.stepEnd(step),
        },
        id,
        done,
      );
      done.set(id, records);
      seconds.set(id, Math.round(performance.now() - started) / 1000);
      for (const record of records) out.job(record, await keepSummary(record));
    } finally {
      await own.endAll();
      jobGroups.delete(own);
      if (folders) {
        await engine.removeRunnerTemp(folders);
        temps.delete(folders);
      }
      await slot?.release();
      jobPrinter?.flush();
    }
  };
  try {
    await sideBySide(jobs, (id) => engine.neededBy(workflow, id), limit, rehearseOne);
  } finally {
    stop.dispose();
    await groups.endAll();
    await platform.close();
    await results?.close();
  }
  // The run's artifacts, as its page on GitHub lists them.
  for (const artifact of results?.artifacts() ?? [])
    printer.line(
      `artifact ${safeText(artifact.name)}: ${artifact.size} bytes, made by ${safeText(artifact.job)} (kept in ${artifact.file})`,
    );
  // In the workflow's order, whichever ended first.
  const records = jobs.flatMap((id) => done.get(id) ?? []);
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
  return { json: rehearsalJson(file, event.name, records, exitCode, seconds) };
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
