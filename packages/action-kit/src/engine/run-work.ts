import {
  AbortedError,
  type CallOptions,
  type Conclusion,
  type CwpClient,
  CwpError,
  createClient,
  type LogFollower,
  type WaitOptions,
  WaitTimeoutError,
} from "@cwp/client";
import { z } from "zod";
import { InputError, InputErrors } from "../inputs/input-error.js";
import { type RawInputs, readInputs } from "../inputs/read.js";
import { connection, sharedInputs } from "../inputs/shared.js";
import { AFTER_CANCEL_MS, type Cancellation, onCancel, START_GRACE_MS } from "./cancellation.js";
import { formatDuration } from "./duration.js";
import { recentDurations } from "./history.js";
import { type FailureKind, failWith, host, type Report, say, warn } from "./host.js";
import { LogPump } from "./log-pump.js";
import type { OutputKind } from "./output-kinds.js";
import { Outputs } from "./outputs.js";
import { mask, redact } from "./secrets.js";

/** How long the remote abort may take after a cancel or timeout, within the runner's 7.5 s. */
const ABORT_WITHIN_MS = 5000;
/** How long the logs left after the work concluded (or was aborted) may take to read. */
const DRAIN_WITHIN_MS = 2000;

export type SharedConfig = z.output<z.ZodObject<typeof sharedInputs>>;

/** Remote work an action started, and how to follow it to its conclusion. */
export interface StartedWork<T> {
  /** What ran, for messages and the summary: "build joyous-view-6290 of service web". */
  title: string;
  /** Ids and places for the summary. */
  rows: Array<[string, string | undefined]>;
  /** The resource as the start returned it, if it did. */
  initial?: T | undefined;
  outputs(resource: T | undefined): Record<string, string | number | boolean | undefined>;
  wait(options: WaitOptions<T>): Promise<T>;
  conclude(resource: T): Conclusion;
  /** How a status change reads in the log, when the bare status would mislead. */
  describeStatus?(status: string, resource: T): string;
  message?(resource: T): string | undefined;
  /** Remote logs to stream while waiting. */
  logs?(startTime: string): LogFollower;
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
}

/** What an action does with the parsed config: start its work, or settle without any. */
export interface ActionContext<C> {
  config: C & SharedConfig;
  client: CwpClient;
  /** Aborts at the workflow's cancel: for the reads before the work starts. */
  signal: AbortSignal;
  /**
   * For the one request that starts the remote work: a cancel lets it answer (within 5 s), so the
   * kit can abort what it started instead of leaving it running with nobody told.
   */
  startSignal: AbortSignal;
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
  rows: Array<[string, string | undefined]>;
  outputs: Record<string, string | number | boolean | undefined>;
  success: boolean;
  message: string;
  /** A job summary of the action's own, instead of the standard one. */
  summary?: string;
}

/** Names an action's definition, with its types inferred (`export const definition = defineAction({...})`). */
export const defineAction = <S extends z.ZodRawShape, T>(action: ActionDefinition<S, T>) => action;

const isFinished = (x: unknown): x is Finished => (x as Finished).finished === true;

/** The inputs every action has and its own, as one schema (the CLI's flags are their names). */
export const inputsOf = (action: { inputs: z.ZodRawShape }) =>
  z.object({ ...sharedInputs, ...action.inputs });

/**
 * Runs an action on the current host (`useHost`): parses its inputs once, starts the work, waits
 * with status lines and streamed logs, aborts it on a cancel or a timeout, and reports. The host
 * hears how it ended (`fail` with a kind); nothing here knows whether it is a GitHub runner.
 */
export async function runWork<S extends z.ZodRawShape, T>(
  action: ActionDefinition<S, T>,
  raw: RawInputs,
  /** Listening since the process began (`onCancel()`), so even an early cancel ends it cleanly. */
  cancel: Cancellation = onCancel(),
): Promise<void> {
  const schema = inputsOf(action);
  // Every token (`api-token`, `github-token`, `CWP_API_TOKEN`) is hidden before anything is printed,
  // even before the inputs are parsed: no message can show one.
  for (const name of Object.keys(schema.shape)) if (name.endsWith("token")) mask(raw(name).trim());
  mask(process.env.CWP_API_TOKEN?.trim());
  const outputs = new Outputs(action.outputs);
  let client: CwpClient | undefined;
  try {
    const config = readInputs(schema, raw) as z.output<z.ZodObject<S>> & SharedConfig;
    action.validate?.(config);
    const conn = connection(config);
    mask(conn.token);
    if (conn.unencrypted)
      warn(
        `${host().inputName("api-url")} is plain http to another machine: the API token travels unencrypted. Use https.`,
      );
    const started = Date.now();
    // `timeout` bounds the whole step: no request, retry or response body of it goes past it.
    client = createClient({
      baseUrl: conn.baseUrl,
      token: conn.token,
      teamId: conn.teamId,
      deadline: started + config.timeout,
    });
    if (conn.teamId) say(`Acting for team ${conn.teamId} (/v1/teams/${conn.teamId}/...)`);
    const work = await action.start({
      config,
      client,
      signal: cancel.signal,
      startSignal: cancel.startSignal,
    });
    if (isFinished(work)) {
      outputs.set(work.outputs);
      if (work.success) say(work.message);
      if (work.summary !== undefined) await host().rawReport(redact(work.summary));
      else
        await host().report({
          action: action.name,
          title: work.title,
          outcome: work.success ? "success" : "failure",
          rows: work.rows,
          message: work.message,
        });
      if (!work.success) failWith(work.message);
      return;
    }
    outputs.set(work.outputs(work.initial));
    say(`Started ${work.title}.`);
    if (cancel.signal.aborted) {
      await startedDuringCancel(action.name, work, config, cancel);
      return;
    }
    if (!config.wait) {
      const status = work.initial ? work.conclude(work.initial).status : undefined;
      await host().report({
        action: action.name,
        title: work.title,
        outcome: "started",
        status,
        rows: work.rows,
      });
      return;
    }
    await follow(action.name, work, config, cancel, started, outputs);
  } catch (error) {
    await fail(action.name, error, cancel.signal.aborted);
  } finally {
    cancel.dispose();
    await client?.close();
  }
}

/** The workflow was cancelled while the start request was under way, and the work started. */
async function startedDuringCancel<T>(
  name: string,
  work: StartedWork<T>,
  config: SharedConfig,
  cancel: Cancellation,
): Promise<void> {
  const aborted = await abortRemote(work, config, cancel);
  const message = `Cancelled with the workflow while ${work.title} was being started: it had started; ${aborted}`;
  await host().report({ action: name, title: work.title, outcome: "cancelled", rows: work.rows, message });
  failWith(message, "cancelled");
}

async function follow<T>(
  name: string,
  work: StartedWork<T>,
  config: SharedConfig,
  cancel: Cancellation,
  started: number,
  outputs: Outputs<string>,
): Promise<void> {
  const { signal } = cancel;
  const pump = work.logs
    ? new LogPump(work.logs(new Date(started - 60_000).toISOString()), `Logs of ${work.title}`)
    : undefined;
  pump?.start();
  let last: T | undefined = work.initial;
  const report = (outcome: Report["outcome"], status: string | undefined, message?: string) =>
    host().report({
      action: name,
      title: work.title,
      outcome,
      status,
      rows: work.rows,
      durationMs: Date.now() - started,
      message,
      lastLines: outcome === "success" ? undefined : pump?.last,
    });
  try {
    const history = work.history;
    const expectedDurationsMs = history && (await recentDurations(history, () => history.read(signal)));
    const final = await work.wait({
      deadline: started + config.timeout,
      startedAt: started,
      ...(expectedDurationsMs ? { expectedDurationsMs } : {}),
      signal,
      onPoll: (resource) => {
        last = resource;
        host().progress(
          redact(
            `[${formatDuration(Date.now() - started)}] ${work.title}: ${work.conclude(resource).status}`,
          ),
        );
      },
      onStatus: (status, resource) =>
        say(
          `[${formatDuration(Date.now() - started)}] ${work.title}: ${work.describeStatus?.(status, resource) ?? status}`,
        ),
    });
    // A log outage never holds a concluded step: what is left is read for 2 s at most.
    await pump?.drain(Math.min(DRAIN_WITHIN_MS, started + config.timeout - Date.now()));
    const conclusion = work.conclude(final);
    outputs.set(work.outputs(final));
    const message = work.message?.(final);
    await report(conclusion.success ? "success" : "failure", conclusion.status, message);
    const took = formatDuration(Date.now() - started);
    if (conclusion.success) say(`${capitalise(work.title)} concluded ${conclusion.status} in ${took}.`);
    else
      failWith(
        `${capitalise(work.title)} ended ${conclusion.status} after ${took}${message ? `: ${message}` : ""}.`,
      );
  } catch (error) {
    const timedOut = error instanceof WaitTimeoutError;
    const cancelled = error instanceof AbortedError && signal.aborted;
    if (!timedOut && !cancelled) {
      pump?.stop();
      throw error;
    }
    if (last !== undefined) outputs.set(work.outputs(last));
    const status = last !== undefined ? work.conclude(last).status : undefined;
    const why = timedOut
      ? `did not conclude within ${formatDuration(config.timeout)}`
      : "was cancelled with the workflow";
    // The abort goes first; the logs get what time is left after it.
    pump?.stop();
    const aborted = await abortRemote(work, config, cancel);
    await pump?.drain(Math.min(DRAIN_WITHIN_MS, timeLeftAfterCancel(cancel)));
    const message = `${capitalise(work.title)} ${why}${status ? ` (last status ${status})` : ""}; ${aborted}`;
    await report(timedOut ? "timed out" : "cancelled", status, message);
    failWith(message, timedOut ? "timeout" : "cancelled");
  }
}

/**
 * Aborts the remote work within 5 s, and after a cancel before the runner kills the step, and says
 * what happened to it.
 */
async function abortRemote<T>(
  work: StartedWork<T>,
  config: SharedConfig,
  cancel: Cancellation,
): Promise<string> {
  if (!work.abort) return "the platform cannot abort it, so it may still be running.";
  if (!config["abort-on-cancel"]) return "it was left running (abort-on-cancel is false).";
  const within = Math.max(1000, Math.min(ABORT_WITHIN_MS, timeLeftAfterCancel(cancel)));
  try {
    await work.abort({ signal: AbortSignal.timeout(within), deadline: Date.now() + within, urgent: true });
    return "it was aborted on the platform.";
  } catch (error) {
    return `aborting it failed (${(error as Error).message}): it may still be running.`;
  }
}

/** Time left before the runner kills the step after a cancel (unbounded without one), ms. */
function timeLeftAfterCancel(cancel: Cancellation): number {
  return cancel.cancelledAt === undefined
    ? Number.POSITIVE_INFINITY
    : cancel.cancelledAt + AFTER_CANCEL_MS - Date.now();
}

async function fail(name: string, error: unknown, cancelled: boolean): Promise<void> {
  if (error instanceof InputError || error instanceof InputErrors) {
    const errors = error instanceof InputError ? [error] : error.errors;
    const told = errors.map((e) => `${host().inputName(e.input)}: ${e.reason}`);
    failWith(`${told.join("\n")}\nNothing was sent to the platform.`, "input");
    return;
  }
  // The client's messages already name the request, the status and the platform's error id.
  const reason =
    error instanceof CwpError
      ? error.message
      : `Unexpected error: ${(error as Error)?.message ?? String(error)}`;
  const unanswered = cancelled && error instanceof CwpError && error.outcomeUnknown;
  const message = unanswered
    ? `Cancelled with the workflow while the start request had no answer ${START_GRACE_MS / 1000} s later: ${reason}`
    : cancelled
      ? `Cancelled with the workflow: ${reason}`
      : reason;
  await host().report({
    action: name,
    title: "the request failed",
    outcome: cancelled ? "cancelled" : "failure",
    rows: [],
    message,
  });
  failWith(message, failureKind(error, cancelled));
}

/** How a failed request ends the step: a cancel, an unknown outcome, the deadline, or refused. */
function failureKind(error: unknown, cancelled: boolean): FailureKind {
  if (cancelled) return "cancelled";
  if (error instanceof CwpError && error.outcomeUnknown) return "unknown";
  if (error instanceof WaitTimeoutError) return "timeout";
  return "failed";
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
