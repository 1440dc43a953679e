import {
  AbortedError,
  type CallOptions,
  type Clock,
  type Conclusion,
  ConflictError,
  type CwpClient,
  CwpError,
  clockSpan,
  clockTimeAfter,
  createClient,
  type LogFollower,
  realSpan,
  type WaitOptions,
  WaitTimeoutError,
} from "@cwp/client";
import { z } from "zod";
import { InputError, InputErrors } from "../inputs/input-error.js";
import type { RawInputs } from "../inputs/read.js";
import { connection, readInputsAndConnection, sharedInputs } from "../inputs/shared.js";
import { AFTER_CANCEL_MS, type Cancellation, onCancel, START_GRACE_MS } from "./cancellation.js";
import { formatDuration } from "./duration.js";
import { median, recentDurations } from "./history.js";
import {
  type FailureKind,
  failWith,
  host,
  type OwnReport,
  type Report,
  StepFailure,
  type SummaryRow,
  say,
  warn,
} from "./host.js";
import { LogPump } from "./log-pump.js";
import { wrongIdMessage } from "./not-found.js";
import type { OutputKind } from "./output-kinds.js";
import { Outputs } from "./outputs.js";
import { mask, redact } from "./secrets.js";
import { suggestedTimeout } from "./timeout-advice.js";
import type { Recorder, StepEnd, WorkRecord } from "./work-record.js";

/** How long the remote abort may take after a cancel or timeout, within the runner's 7.5 s. */
const ABORT_WITHIN_MS = 5000;
/** How long the logs left after the work concluded (or was aborted) may take to read. */
const DRAIN_WITHIN_MS = 2000;
/** How long closing the record (a deployment's last status, and the earlier ones it supersedes) may take. */
const RECORD_CLOSE_MS = 60_000;
/**
 * How long the record's closing may go on past the step's deadline: with it, the abort and the
 * logs' drain, a step ends by `timeout` + 7 s whatever GitHub does.
 */
export const CLOSE_AFTER_DEADLINE_MS = 5000;

export type SharedConfig = z.output<z.ZodObject<typeof sharedInputs>>;

/**
 * A summary row, and output values, as an action gives them: a value the platform sent as null
 * (or left out) is not shown, and leaves its output at the default.
 */
type Row = [label: string, value: string | null | undefined];
type OutputValues = Record<string, string | number | boolean | null | undefined>;

/** Remote work an action started, and how to follow it to its conclusion. */
export interface StartedWork<T> {
  /** What ran, for messages and the summary: "build joyous-view-6290 of service web". */
  title: string;
  /** Ids and places for the summary. */
  rows: Row[];
  /** The resource as the start returned it, if it did. */
  initial?: T | undefined;
  outputs(resource: T | undefined): OutputValues;
  wait(options: WaitOptions<T>): Promise<T>;
  conclude(resource: T): Conclusion;
  /** How a status change reads in the log, when the bare status would mislead. */
  describeStatus?(status: string, resource: T): string;
  message?(resource: T): string | undefined;
  /**
   * Remote logs to stream while waiting, each read within `options`: past the step's deadline by
   * the closing's time, so the lines printed up to a timeout are still read after it.
   */
  logs?(startTime: string, options: CallOptions): LogFollower;
  /**
   * How long earlier runs of the same work took (ms), read once before waiting so the polls
   * gather where those runs ended; `one` and `many` name them for the log ("build of service
   * web", "builds of service web").
   */
  history?: { one: string; many: string; read(signal: AbortSignal): Promise<number[]> };
  /**
   * Aborts the remote work (for a cancel or a timeout, when `abort-on-cancel`). The options carry
   * the abort's own signal and deadline, and `urgent`: it goes out even with the budget spent.
   */
  abort?(options: CallOptions): Promise<void>;
  /**
   * Reads the work once: after an abort refused because the work had already concluded (409), so
   * that the step reports what it concluded instead of "may still be running".
   */
  read?(options: CallOptions): Promise<T>;
}

/** What an action does with the parsed config: start its work, or settle without any. */
export interface ActionContext<C> {
  config: C & SharedConfig;
  client: CwpClient;
  /** The host's time (`Host.clock`): what "now" is for a range of time the action reads. */
  clock: Clock;
  /** Aborts at the workflow's cancel: for the reads before the work starts. */
  signal: AbortSignal;
  /** The step's deadline (epoch ms on `clock`), from `timeout`: what else the action calls (GitHub) ends by it. */
  deadline: number;
  /**
   * For the one request that starts the remote work. Its signal lets it answer after a cancel
   * (within 5 s), so the kit can abort what it started instead of leaving it running with nobody
   * told; once the request is known valid, and before it is sent, the record is opened (a GitHub
   * deployment): a request refused before sending leaves no record anywhere.
   */
  startOptions: CallOptions;
}

export interface ActionDefinition<S extends z.ZodRawShape, T> {
  name: string;
  inputs: S;
  /** Every output and what it carries (`OUTPUT.id`, ...): its default is written before anything else happens. */
  outputs: Record<string, OutputKind>;
  /** Checks that need the whole config (before any request). */
  validate?(config: z.output<z.ZodObject<S>> & SharedConfig): void;
  /** Starts the work, or returns a finished result when there is nothing to do. */
  start(ctx: ActionContext<z.output<z.ZodObject<S>>>): Promise<StartedWork<T> | Finished>;
}

/** An action that settled without remote work to wait for (e.g. the addon already at the version). */
export interface Finished {
  finished: true;
  title: string;
  rows: Row[];
  outputs: OutputValues;
  success: boolean;
  message: string;
  /** A report of the action's own, instead of the standard one. */
  summary?: OwnReport;
}

/** Names an action's definition, with its types inferred (`export const definition = defineAction({...})`). */
export const defineAction = <S extends z.ZodRawShape, T>(action: ActionDefinition<S, T>) => action;

const isFinished = (x: unknown): x is Finished => (x as Finished).finished === true;

/** The inputs every action has and its own, as one schema (the CLI's flags are their names). */
export const inputsOf = (action: { inputs: z.ZodRawShape }) =>
  z.object({ ...sharedInputs, ...action.inputs });

/** The summary, with what the record adds to its rows. */
type Reporter = (report: Omit<Report, "action" | "rows"> & { rows: Row[] }) => Promise<void>;

/**
 * Runs an action on the current host (`useHost`): parses its inputs once, starts the work, waits
 * with status lines and streamed logs, aborts it on a cancel or a timeout, and reports. The host
 * hears how it ended (`fail` with a kind); nothing here knows whether it is a GitHub runner. A
 * host's `recorder` (GitHub Deployments) adds its inputs and keeps its record of the work.
 */
export async function runWork<S extends z.ZodRawShape, T>(
  action: ActionDefinition<S, T>,
  raw: RawInputs,
  /** Listening since the process began (`onCancel()`), so even an early cancel ends it cleanly. */
  cancel: Cancellation = onCancel(),
  recorder?: Recorder,
): Promise<void> {
  const schema = inputsOf(action).extend(recorder?.inputs ?? {});
  // Every token (`api-token`, `github-token`, `CWP_API_TOKEN`) is hidden before anything is printed,
  // even before the inputs are parsed: no message can show one.
  for (const name of Object.keys(schema.shape)) if (name.endsWith("token")) mask(raw(name).trim());
  mask(process.env.CWP_API_TOKEN?.trim());
  const outputs = new Outputs({ ...action.outputs, ...recorder?.outputs });
  let client: CwpClient | undefined;
  let record: WorkRecord | undefined;
  let end: StepEnd | undefined;
  let workStarted = false;
  /** The inputs as parsed, once they are: a wrong id in them is named by a 404. */
  let parsed: Record<string, unknown> = {};
  const report: Reporter = (r) =>
    host().report({
      action: action.name,
      ...r,
      rows: [
        ...r.rows.map(([label, value]): SummaryRow => [label, value ?? undefined]),
        ...(record?.rows() ?? []),
      ],
    });
  // `timeout` bounds the whole step, from here: no request, retry, response body or GitHub call of
  // it goes past it (only the closing, by at most CLOSE_AFTER_DEADLINE_MS). It counts the host's time.
  let { clock } = host();
  let started = clock.now();
  let deadline = Number.POSITIVE_INFINITY;
  try {
    const config = readInputsAndConnection(schema, raw) as z.output<z.ZodObject<S>> & SharedConfig;
    parsed = config;
    action.validate?.(config);
    const asked = recorder?.create(config, action.name);
    const conn = connection(config);
    mask(conn.token);
    if (host().readClock) {
      await host().readClock?.(conn.baseUrl);
      ({ clock } = host());
      started = clock.now();
    }
    if (conn.unencrypted)
      warn(
        `${host().inputName("api-url")} is plain http to another machine: the API token travels unencrypted. Use https.`,
      );
    deadline = started + config.timeout;
    const stepDeadline = deadline;
    // Opened once the start request is known valid and before it is sent: a record that cannot be
    // kept stops the step with nothing started, and a request refused before sending leaves none.
    let opening: Promise<void> | undefined;
    const openRecord = () =>
      (opening ??= (async () => {
        if (!asked) return;
        await asked.open({ signal: cancel.signal, deadline: stepDeadline });
        record = asked;
        outputs.set(asked.outputs());
      })());
    client = createClient({
      baseUrl: conn.baseUrl,
      token: conn.token,
      teamId: conn.teamId,
      deadline,
      clock,
      onWarning: warn,
    });
    if (conn.teamId) say(`Acting for team ${conn.teamId} (/v1/teams/${conn.teamId}/...)`);
    const work = await action.start({
      config,
      client,
      clock,
      signal: cancel.signal,
      deadline,
      startOptions: { signal: cancel.startSignal, beforeSend: openRecord },
    });
    if (isFinished(work)) {
      outputs.set(work.outputs);
      end = { outcome: work.success ? "succeeded" : "failed", summary: work.message };
      if (work.success) say(work.message);
      if (work.summary !== undefined)
        await host().rawReport({ markdown: redact(work.summary.markdown), text: redact(work.summary.text) });
      else
        await report({
          title: work.title,
          outcome: work.success ? "success" : "failure",
          rows: work.rows,
          message: work.message,
        });
      if (!work.success) failWith(work.message);
      return;
    }
    workStarted = true;
    outputs.set(work.outputs(work.initial));
    say(`Started ${work.title}.`);
    if (cancel.signal.aborted) {
      end = await startedDuringCancel(work, config, cancel, report);
      return;
    }
    if (!config.wait) {
      const status = work.initial ? work.conclude(work.initial).status : undefined;
      await report({ title: work.title, outcome: "started", status, rows: work.rows });
      return;
    }
    end = await follow(work, config, cancel, { clock, started }, outputs, report, record);
  } catch (error) {
    end = await fail(report, error, cancel.signal.aborted, workStarted, parsed);
  } finally {
    await record?.close(
      end ?? { outcome: "unknown", summary: "The step ended before its work's outcome was known." },
      closeWithin(cancel, clock, deadline),
    );
    cancel.dispose();
    await client?.close();
  }
}

/** The workflow was cancelled while the start request was under way, and the work started. */
async function startedDuringCancel<T>(
  work: StartedWork<T>,
  config: SharedConfig,
  cancel: Cancellation,
  report: Reporter,
): Promise<StepEnd> {
  const aborted = await abortRemote(work, config, cancel, host().clock);
  const message = `Cancelled ${host().cancelledBy} while ${work.title} was being started: it had started; ${aborted.said}`;
  await report({ title: work.title, outcome: "cancelled", rows: work.rows, message });
  failWith(message, "cancelled");
  return { outcome: aborted.stopped ? "stopped" : "abandoned", summary: message };
}

async function follow<T>(
  work: StartedWork<T>,
  config: SharedConfig,
  cancel: Cancellation,
  /** The host's clock, and when the step began on it. */
  { clock, started }: { clock: Clock; started: number },
  outputs: Outputs<string>,
  report: Reporter,
  record: WorkRecord | undefined,
): Promise<StepEnd> {
  const { signal } = cancel;
  const logsDeadline = started + config.timeout + clockSpan(clock, CLOSE_AFTER_DEADLINE_MS);
  const pump = work.logs
    ? new LogPump(
        work.logs(new Date(started - 60_000).toISOString(), { deadline: logsDeadline }),
        `Logs of ${work.title}`,
      )
    : undefined;
  pump?.start();
  let last: T | undefined = work.initial;
  // A line from the wait's start (the terminal's heartbeat counts from it): the first poll may be
  // minutes away when earlier runs took that long.
  host().progress(
    redact(`[0s] ${work.title}: ${work.initial ? work.conclude(work.initial).status : "started"}`),
  );
  const reportAs = (outcome: Report["outcome"], status: string | undefined, message?: string) =>
    report({
      title: work.title,
      outcome,
      status,
      rows: work.rows,
      durationMs: clock.now() - started,
      message,
      lastLines: outcome === "success" ? undefined : pump?.last,
    });
  /** The step ends as the work concluded, the platform having said so. */
  const settle = async (final: T): Promise<StepEnd> => {
    const conclusion = work.conclude(final);
    outputs.set(work.outputs(final));
    const message = work.message?.(final);
    await reportAs(conclusion.success ? "success" : "failure", conclusion.status, message);
    const took = formatDuration(clock.now() - started);
    if (conclusion.success) {
      const said = `${capitalise(work.title)} concluded ${conclusion.status} in ${took}.`;
      say(said);
      return { outcome: "succeeded", summary: said };
    }
    const said = `${capitalise(work.title)} ended ${conclusion.status} after ${took}${message ? `: ${message}` : ""}.`;
    failWith(said);
    return { outcome: "failed", summary: said };
  };
  /** Said at the start and again at a timeout: the timeout is shorter than the work usually takes. */
  let shortTimeoutAdvice: string | undefined;
  try {
    const history = work.history;
    const expectedDurationsMs = history && (await recentDurations(history, () => history.read(signal)));
    shortTimeoutAdvice =
      history && expectedDurationsMs
        ? shortTimeout(history.many, expectedDurationsMs, config.timeout)
        : undefined;
    if (shortTimeoutAdvice) warn(shortTimeoutAdvice);
    // Told in the background: GitHub being slow never holds the wait, and a cancel ends it.
    record?.started(work.title, expectedDurationsMs && median(expectedDurationsMs));
    const final = await work.wait({
      deadline: started + config.timeout,
      startedAt: started,
      ...(expectedDurationsMs ? { expectedDurationsMs } : {}),
      signal,
      onPoll: (resource) => {
        last = resource;
        host().progress(
          redact(
            `[${formatDuration(clock.now() - started)}] ${work.title}: ${work.conclude(resource).status}`,
          ),
        );
      },
      onStatus: (status, resource) => {
        say(
          `[${formatDuration(clock.now() - started)}] ${work.title}: ${work.describeStatus?.(status, resource) ?? status}`,
        );
        pump?.wake();
      },
    });
    // A log outage never holds a concluded step: what is left is read for 2 s at most.
    await pump?.drain(Math.min(DRAIN_WITHIN_MS, started + config.timeout - clock.now()));
    return await settle(final);
  } catch (error) {
    const timedOut = error instanceof WaitTimeoutError;
    const cancelled = error instanceof AbortedError && signal.aborted;
    // A wait that could not go on (the platform kept answering what cannot be read, or refused a
    // read) leaves work that was started and may still run: it is aborted, or said to be running.
    const lost = !timedOut && !cancelled && error instanceof CwpError;
    if (!timedOut && !cancelled && !lost) {
      pump?.stop();
      throw error;
    }
    if (last !== undefined) outputs.set(work.outputs(last));
    const status = last !== undefined ? work.conclude(last).status : undefined;
    const why = timedOut
      ? `did not conclude within ${formatDuration(config.timeout)}`
      : cancelled
        ? `was cancelled ${host().cancelledBy}`
        : `could not be followed to its end (${(error as Error).message})`;
    // The abort goes first, then the record; the logs get what time is left after them.
    pump?.stop();
    const aborted = await abortRemote(work, config, cancel, clock);
    if (aborted.concluded !== undefined && !cancelled) {
      // It concluded as the deadline came (or as the reads failed): the platform's word is the step's.
      say(
        `The abort was refused: ${work.title} had already concluded (${work.conclude(aborted.concluded).status}).`,
      );
      await pump?.drain(DRAIN_WITHIN_MS);
      return await settle(aborted.concluded);
    }
    const check =
      lost && !aborted.stopped ? " Look at its status on the platform before starting it again." : "";
    const advice = timedOut && shortTimeoutAdvice ? ` ${shortTimeoutAdvice}` : "";
    const message = `${capitalise(work.title)} ${why}${status ? ` (last status ${status})` : ""}; ${aborted.said}${check}${advice}`;
    const end: StepEnd = { outcome: aborted.stopped ? "stopped" : "abandoned", summary: message };
    await record?.close(end, closeWithin(cancel, clock, started + config.timeout));
    await pump?.drain(Math.min(DRAIN_WITHIN_MS, timeLeftAfterCancel(cancel)));
    await reportAs(timedOut ? "timed out" : cancelled ? "cancelled" : "failure", status, message);
    failWith(
      message,
      timedOut ? "timeout" : cancelled ? "cancelled" : aborted.stopped ? "failed" : "unknown",
    );
    return end;
  }
}

/**
 * Aborts the remote work within 5 s, and after a cancel before the runner kills the step, and says
 * what happened to it (`stopped` when it no longer runs).
 */
async function abortRemote<T>(
  work: StartedWork<T>,
  config: SharedConfig,
  cancel: Cancellation,
  clock: Clock,
): Promise<{ said: string; stopped: boolean; concluded?: T }> {
  if (!work.abort)
    return { said: "the platform cannot abort it, so it may still be running.", stopped: false };
  if (!config["abort-on-cancel"])
    return { said: "it was left running (abort-on-cancel is false).", stopped: false };
  const within = Math.max(1000, Math.min(ABORT_WITHIN_MS, timeLeftAfterCancel(cancel)));
  // Within this machine's time (the runner's kill does not wait for a sped-up clock).
  const budget = () => ({
    signal: AbortSignal.timeout(within),
    deadline: clockTimeAfter(clock, within),
    urgent: true,
  });
  try {
    await work.abort(budget());
    return { said: "it was aborted on the platform.", stopped: true };
  } catch (error) {
    // 409: nothing to abort, it had concluded. Read once more to know how.
    const final =
      error instanceof ConflictError && work.read
        ? await work.read(budget()).catch(() => undefined)
        : undefined;
    if (final !== undefined && work.conclude(final).concluded)
      return { said: "it had already concluded.", stopped: true, concluded: final };
    // The platform's 409 says there is nothing left to abort: never "it may still be running",
    // even when the read after it failed too.
    if (error instanceof ConflictError)
      return {
        said: "the platform refused the abort as it had already concluded (409); how it concluded could not be read. Look at its status on the platform.",
        stopped: true,
      };
    return {
      said: `aborting it failed (${(error as Error).message}): it may still be running.`,
      stopped: false,
    };
  }
}

/** A timeout shorter than the work usually takes, said with a value to use (`suggestedTimeout`). */
function shortTimeout(many: string, durationsMs: readonly number[], timeoutMs: number): string | undefined {
  const usual = median(durationsMs);
  if (usual === undefined || usual <= timeoutMs) return undefined;
  return `The timeout (${formatDuration(timeoutMs)}) is shorter than ${many} usually take (${formatDuration(usual)}, the median of the last ${durationsMs.length}): set ${host().inputSetting("timeout", suggestedTimeout(durationsMs))}.`;
}

/**
 * How long the record's closing may take: after a cancel, what is left before the runner kills
 * the step less the logs' drain; otherwise what is left of the step's time and
 * CLOSE_AFTER_DEADLINE_MS past it, at most a minute.
 */
const closeWithin = (cancel: Cancellation, clock: Clock, deadline: number) =>
  Math.max(
    1000,
    Math.min(
      RECORD_CLOSE_MS,
      realSpan(clock, deadline - clock.now()) + CLOSE_AFTER_DEADLINE_MS,
      timeLeftAfterCancel(cancel) - DRAIN_WITHIN_MS,
    ),
  );

/** Time left before the runner kills the step after a cancel (unbounded without one), ms. */
function timeLeftAfterCancel(cancel: Cancellation): number {
  return cancel.cancelledAt === undefined
    ? Number.POSITIVE_INFINITY
    : cancel.cancelledAt + AFTER_CANCEL_MS - Date.now();
}

async function fail(
  report: Reporter,
  error: unknown,
  cancelled: boolean,
  /** The work had started when this happened (a read failed while waiting on it). */
  workStarted: boolean,
  inputs: Record<string, unknown>,
): Promise<StepEnd> {
  if (error instanceof InputError || error instanceof InputErrors) {
    const errors = error instanceof InputError ? [error] : error.errors;
    const told = errors.map((e) => `${host().inputName(e.input)}: ${e.reason}`);
    const message = `${told.join("\n")}\nNothing was sent to the platform.`;
    failWith(message, "input");
    return { outcome: endOf("input", false, workStarted), summary: message };
  }
  // The client's messages already name the request, the status and the platform's error id.
  const reason =
    // Before the work started, a 404 is an id of the inputs; after, it is the work's own.
    (workStarted ? undefined : wrongIdMessage(error, inputs)) ??
    (error instanceof CwpError || error instanceof StepFailure
      ? error.message
      : `Unexpected error: ${(error as Error)?.message ?? String(error)}`);
  const unanswered = cancelled && error instanceof CwpError && error.outcomeUnknown;
  const message = unanswered
    ? `Cancelled ${host().cancelledBy} while the start request had no answer ${START_GRACE_MS / 1000} s later: ${reason}`
    : cancelled
      ? `Cancelled ${host().cancelledBy}: ${reason}`
      : reason;
  await report({
    title: "the request failed",
    outcome: cancelled ? "cancelled" : "failure",
    rows: [],
    message,
  });
  const kind = failureKind(error, cancelled);
  failWith(message, kind);
  return { outcome: endOf(kind, unanswered, workStarted), summary: message };
}

/** A failed request as the record tells it: once the work has started, its end is not known. */
function endOf(kind: FailureKind, unanswered: boolean, workStarted: boolean): StepEnd["outcome"] {
  if (kind === "cancelled") return unanswered || workStarted ? "abandoned" : "stopped";
  if (kind === "failed" || kind === "input") return workStarted ? "unknown" : "failed";
  return "unknown";
}

/** How a failed request ends the step: a cancel, an unknown outcome, the deadline, or refused. */
function failureKind(error: unknown, cancelled: boolean): FailureKind {
  if (cancelled) return "cancelled";
  if (error instanceof CwpError && error.outcomeUnknown) return "unknown";
  if (error instanceof WaitTimeoutError) return "timeout";
  return "failed";
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
