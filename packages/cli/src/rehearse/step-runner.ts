import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { formatDuration, PLATFORM_CLOCK } from "@cwp/action-kit/engine";
import { realSpan } from "@cwp/client";
import { machineClock, type OurStep, type RehearsalEvent, type StepResult } from "@cwp/workflow-rehearsal";
import { ACTION_INPUTS, OPERATIONS, REHEARSAL_INPUTS } from "../operations.js";
import type { RehearsalPlatform } from "./platform.js";

// A step of ours, run as `cwp <operation> --json` in a process of its own: the same engine as the
// action's bundle, with the step's environment and the GITHUB_* variables a runner gives (the
// event's file among them), in the rehearsal's folder. Its inputs go through the environment
// (CWP_REHEARSAL_INPUTS, as a runner's go through INPUT_*), the token through CWP_API_TOKEN: never
// the command line, which any process on the machine can read. Its lines come back one by one as
// it prints them; its outputs are the JSON it ends with, as a runner's outputs are text. It counts
// the platform's time (PLATFORM_CLOCK), its timeout and the job's too: at a timeout it is ended
// as the runner ends a step, SIGINT (the action aborts its work), then killed after the runner's
// 7.5 s.

/**
 * Inputs that act on GitHub (a comment on a pull request or an issue, and its token): the CLI has
 * them, but a rehearsal posts nothing to GitHub, so they are not rehearsed, as a deployment's are not.
 */
const ACTS_ON_GITHUB = ["comment", "issue-title", "issue-label", "github-token"];
/** How long the runner waits after a step's SIGINT before it kills it (ProcessInvoker: SIGTERM at 7.5 s). */
const KILL_AFTER_MS = 7_500;
/** Node's timers hold at most 2^31 - 1 ms (24.8 days): a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface CwpStepResult extends StepResult {
  /** Inputs of the action that only a GitHub runner acts on (a deployment's): not rehearsed. */
  githubOnly: string[];
}

export interface StepRunnerOptions {
  platform: RehearsalPlatform;
  event: RehearsalEvent;
  repository: string;
  /** The folder the steps run in (their files land there). */
  folder: string;
  /** Where the event's file goes (RUNNER_TEMP). */
  temp: string;
  /** The steps' HOME (--run-shell: the rehearsal's own); default the user's. */
  home?: string;
  /** Called with each line the step prints. */
  onLine(line: string): void;
  /** The steps' processes while they run: a stop (SIGINT, SIGTERM, a closed pipe) ends them. */
  children: Set<ChildProcess>;
}

/** A runner's output is text: numbers and booleans as written, null as not set. */
const asText = (value: unknown) =>
  value === null || value === undefined
    ? undefined
    : typeof value === "string"
      ? value
      : JSON.stringify(value);

export function cwpStepRunner(options: StepRunnerOptions): (step: OurStep) => Promise<CwpStepResult> {
  const bin = process.argv[1] ?? "cwp";
  return async (step) => {
    const operation = OPERATIONS[step.action];
    if (!operation) throw new Error(`cwp has no operation ${step.action}`);
    const flags = Object.keys(operation.metadata.inputs).filter((input) => !ACTS_ON_GITHUB.includes(input));
    // The URL and token are the platform's (below), whatever the workflow names.
    const apiToken = step.inputs["api-token"];
    const rest = Object.fromEntries(
      Object.entries(step.inputs).filter(([input]) => input !== "api-url" && input !== "api-token"),
    );
    const args = [step.action, "--json"];
    const inputs = Object.fromEntries(Object.entries(rest).filter(([input]) => flags.includes(input)));
    const githubOnly = Object.keys(rest).filter(
      // The workflow's token fills github-token by default: not something the step asked for. An
      // input the action does not have is no GitHub-only input: it is a finding (a misspelling).
      (input) =>
        (ACTION_INPUTS[step.action] ?? []).includes(input) &&
        !flags.includes(input) &&
        input !== "github-token" &&
        rest[input] !== "",
    );
    const eventPath = join(options.temp, "event.json");
    await writeFile(eventPath, JSON.stringify(options.event.payload));
    // The step's job summary, as a runner gives each step a file of its own.
    const files = await mkdtemp(join(options.temp, "step-"));
    const summaryFile = join(files, "summary.md");
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "",
      ...machineClock(),
      HOME: options.home ?? process.env.HOME ?? options.folder,
      ...(process.env.NO_COLOR !== undefined ? { NO_COLOR: process.env.NO_COLOR } : {}),
      ...step.env,
      // GitHub's default variables, which a workflow's env cannot change ("Variables reference"):
      // RUNNER_TEMP and GITHUB_WORKSPACE among them, where an action's files go.
      ...step.variables,
      GITHUB_EVENT_NAME: options.event.name,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_SHA: options.event.sha,
      GITHUB_REF: options.event.ref,
      GITHUB_REPOSITORY: options.repository,
      // The platform the rehearsal acts on, whatever URL the workflow names. The step's token is
      // the one the workflow gives it (its api-token, else CWP_API_TOKEN in its env), the
      // emulator's standing in for it; where the workflow gives none (a secret not given reads ''),
      // it fails as the action fails on GitHub, "api-token: is required".
      CWP_API_URL: options.platform.url,
      CWP_API_TOKEN:
        apiToken || step.env.CWP_API_TOKEN
          ? (options.platform.token ?? (apiToken || step.env.CWP_API_TOKEN || ""))
          : "",
      [REHEARSAL_INPUTS]: JSON.stringify(inputs),
      ...(options.platform.time ? { [PLATFORM_CLOCK]: JSON.stringify(options.platform.time) } : {}),
    };
    const child = spawn(process.execPath, [bin, ...args], {
      env,
      cwd: options.folder,
      stdio: ["ignore", "pipe", "pipe"],
    });
    options.children.add(child);
    child.on("close", () => options.children.delete(child));
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
    });
    createInterface({ input: child.stderr }).on("line", options.onLine);
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    const timedOut = await endAtTimeout(child, closed, realSpan(options.platform.clock, step.timeout.ms));
    const code = await closed;
    if (timedOut) {
      options.onLine(`Error: ${step.timeout.message}`);
      options.onLine(platformTimeNote(step.timeout.ms, options.platform));
    }
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
    } catch {
      options.onLine(`(its outputs could not be read: ${stdout.slice(0, 200)})`);
    }
    const outputs: Record<string, string> = {};
    for (const [name, value] of Object.entries(json)) {
      const text = asText(value);
      if (name !== "error" && text !== undefined) outputs[name] = text;
    }
    const summary = await readFile(summaryFile, "utf8").catch(() => undefined);
    await rm(files, { recursive: true, force: true });
    return { code: timedOut ? 1 : code, outputs, githubOnly, ...(summary ? { summary } : {}) };
  };
}

/** Ends the step `realMs` from now unless it closed before: SIGINT, then SIGKILL. Says whether it had to. */
async function endAtTimeout(child: ChildProcess, closed: Promise<unknown>, realMs: number): Promise<boolean> {
  if (realMs > MAX_TIMER_MS) return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<true>((resolve) => {
    timer = setTimeout(() => resolve(true), Math.max(0, realMs));
  });
  const timedOut = await Promise.race([closed.then(() => false), timeout]);
  clearTimeout(timer);
  if (!timedOut) return false;
  child.kill("SIGINT");
  const kill = setTimeout(() => child.kill("SIGKILL"), KILL_AFTER_MS);
  await closed;
  clearTimeout(kill);
  return true;
}

/** Which time the timeout counted: the platform's, which the emulator runs faster than this machine's. */
function platformTimeNote(ms: number, platform: RehearsalPlatform): string {
  const { speed } = platform.clock;
  return speed === undefined
    ? `(our steps count the platform's time: ${formatDuration(ms)})`
    : `(our steps count the platform's time: ${formatDuration(ms)} of the emulator's, ${formatDuration(realSpan(platform.clock, ms))} here at ${speed}× time; what a step does on this machine counts ${speed}× too, a lower --speed counts it closer to GitHub)`;
}
