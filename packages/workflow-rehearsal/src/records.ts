import type { RehearsalEvent } from "./contexts.js";
import type { SetByScript } from "./expressions.js";
import type { Combination } from "./matrix.js";
import type { ActionShape } from "./our-actions.js";
import type { DownloadedAction, RemoteUses } from "./runner/action-download.js";
import type { Workflow } from "./workflow.js";

// What a rehearsal is given and what it gives back: the steps it hands its caller to run (ours,
// and scripts under --run-shell), their results, and the record of each job and step.

export type { RehearsalEvent };

/** One of our steps, as the caller runs it. */
export interface OurStep {
  action: string;
  name: string;
  /** `with:`, evaluated, over action.yml's expression defaults (`${{ github.token }}`) evaluated. */
  inputs: Record<string, string>;
  /** The step's environment: the workflow's, the job's and its own, evaluated. */
  env: Record<string, string>;
  /** The runner's default variables (GITHUB_*, RUNNER_*), as a `run:` step gets them. */
  variables: Record<string, string>;
  /**
   * When it is ended: its `timeout-minutes`, or what is left of its job's, in the platform's time
   * (`RehearsalOptions.platformNow`), which the step counts.
   */
  timeout: StepTimeout;
}

/** A tool an `actions/setup-*` step not run would have installed, and the version it asked for. */
export interface ToolAsked {
  /** node, python, go, java, dotnet, ruby. */
  tool: string;
  /** The step's `uses:`. */
  action: string;
  asked: string;
}

/** A `run:` step, for a caller that runs scripts. */
export interface ScriptStep {
  name: string;
  /** The script, its expressions evaluated ("" for a JavaScript action's file). */
  script: string;
  /** A JavaScript action's file (`runs.main`, `pre` or `post`): run with the runner's Node, as `node <file>`, instead of `script`. */
  javascriptFile?: string;
  env: Record<string, string>;
  /** Folders earlier steps added to PATH (GITHUB_PATH), latest first. */
  path: string[];
  /** When it is ended: its `timeout-minutes`, or what is left of its job's, whichever comes first; and what is said then. */
  timeout: StepTimeout;
  /** Its `shell:`, or its job's or workflow's `defaults.run.shell`; none: the runner's default. */
  shell?: string;
  /** Its `working-directory:` (evaluated), or `defaults.run`'s; relative to the workspace. */
  workingDirectory?: string;
  /** The default variables a runner gives it (GITHUB_*, RUNNER_*, CI), from its contexts. */
  variables: Record<string, string>;
  /** Step debug logging is on (the secret or variable ACTIONS_STEP_DEBUG is true). */
  debug?: boolean;
  /** Tools asked for by setup steps not run, not yet said in this job: the step says what it finds instead. */
  toolsAsked?: ToolAsked[];
}

/** actions/checkout of the repository being rehearsed, at the rehearsed commit, into the workspace. */
export interface CheckoutStep {
  name: string;
  /** The event's ref and commit (github.ref, github.sha). */
  ref: string;
  sha: string;
  /** Its `fetch-depth` as checkout reads it: 0 is all history and tags. */
  fetchDepth: number;
  /** Its `fetch-tags`: tags too, where fetch-depth is above 0. */
  fetchTags: boolean;
}

/** How long a step may run, and the error the log shows when it is ended then. */
export interface StepTimeout {
  ms: number;
  message: string;
}

export interface StepResult {
  code: number | null;
  outputs: Record<string, string>;
  /** What it wrote to GITHUB_STEP_SUMMARY (Markdown): the job summary's next part. */
  summary?: string;
}

/** An action's end (a local one, or another repository's): its outputs; why it failed before a step ran, or why it was not run. */
export interface LocalResult extends StepResult {
  /** The runner's message where it could not run the action (not there, not valid). */
  error?: string;
  notRehearsed?: string;
  /** What the runner would warn of (a deprecated input given, a Node it is forced onto): the step goes on. */
  warnings: string[];
}

/** A script's result: what it wrote to GITHUB_OUTPUT, GITHUB_ENV and GITHUB_PATH. */
export interface ScriptResult extends StepResult {
  env: Record<string, string>;
  path: string[];
  /** What it saved for its action's post step (GITHUB_STATE, save-state). */
  state?: Record<string, string>;
}

export interface RehearsalOptions<R extends StepResult> {
  workflow: Workflow;
  event: RehearsalEvent;
  /** owner/name of the repository that holds the workflow. */
  repository: string;
  /** That repository's folder (github.workspace; hashFiles reads there). */
  workspace: string;
  /** runner.temp. */
  temp?: string;
  secrets?: Record<string, string>;
  vars?: Record<string, string>;
  /** A workflow_dispatch's inputs as given (typed and defaulted here). */
  inputs?: Record<string, string>;
  /** The workflow's token (`github.token`). */
  token?: string;
  /** Our actions' inputs and outputs, by name. */
  actions: Record<string, ActionShape>;
  runStep(step: OurStep): Promise<R>;
  runScript?(step: ScriptStep): Promise<ScriptResult>;
  /**
   * Another repository's action (`owner/repo[/path]@ref`), downloaded as the runner downloads it
   * while the job is set up (`runner/action-download.ts`); where not given, such a step is only read.
   */
  downloadAction?(action: RemoteUses): Promise<DownloadedAction>;
  /**
   * The variables the runner gives a JavaScript action and not a `run:` step, naming GitHub's
   * Actions services the host serves (ACTIONS_RUNTIME_URL, ACTIONS_RUNTIME_TOKEN,
   * ACTIONS_RESULTS_URL), for the job that runs it; where not given, the actions that need them are
   * not rehearsed.
   */
  actionsRuntime?(job: string): Record<string, string>;
  /** Makes the workspace what actions/checkout makes of the repository (under --run-shell, in the workspace copy). */
  checkout?(step: CheckoutStep): Promise<StepResult>;
  /** The `inputs` of a reusable workflow, as the job that calls it gives them. */
  callInputs?: Record<string, unknown>;
  /** Called as each run of a job (each matrix combination) begins, with its name as GitHub shows it. */
  onJobStart?(job: { id: string; title: string }): void;
  /** Called before a step runs (ours, or a script), with what it gets. */
  onStepStart?(step: StepRecord<R>): void;
  /** Called with each step once it ran, was read, skipped or refused. */
  onStepEnd?(step: StepRecord<R>): void;
  /**
   * Aborted by the host's first Ctrl-C or SIGTERM, a cancel as GitHub's: the host ends the running
   * step; the steps and jobs after it run only where their if: holds after a cancel (always(),
   * cancelled()), as on GitHub.
   */
  signal?: AbortSignal;
  /**
   * Now on the platform our steps act on (epoch ms): their time, which counts against the job's
   * `timeout-minutes` and their own (the emulator's, sped up, in `cwp rehearse`); where not given,
   * this machine's. Scripts count this machine's.
   */
  platformNow?: () => number;
  /**
   * Called as each run of a job that runs begins, before its first step: the host gives it a
   * runner of its own (under --run-shell, fresh folders at the same paths as every job's).
   */
  startJob?(): Promise<void>;
  /** Called as each run of a job ends: what its steps left running ends with it, as on a runner. */
  endJob?(): Promise<void>;
}

export interface StepRecord<R extends StepResult = StepResult> {
  /** As the runner's log names it: its name (evaluated), else what it uses or runs. */
  name: string;
  id?: string;
  /**
   * ran (one of ours), script (a `run:` step run), local (a local action), remote (another
   * repository's action, downloaded), checkout (actions/checkout of the repository, rehearsed as
   * done), read (another action or a script not run),
   * skipped by its `if:`, unknown (it depends on a value only a step not run sets), refused (an
   * expression GitHub would refuse).
   */
  kind: "ran" | "script" | "local" | "remote" | "checkout" | "read" | "skipped" | "unknown" | "refused";
  action?: string;
  /** The commit another repository's action was downloaded at. */
  commit?: string;
  /** A JavaScript action's pre or post step (a script record, of `action` at `commit`), as the runner's log names it. */
  stage?: "pre" | "post";
  /** What our step gave. */
  result?: R;
  /** What a `run:` step run (--run-shell) gave. */
  script?: ScriptResult;
  /** What actions/checkout of the repository, rehearsed as done, gave (its outputs `ref` and `commit`). */
  checkout?: StepResult;
  /** What a local action (`uses: ./path`) or another repository's gave: its steps are records of their own, named after it. */
  local?: LocalResult;
  inputs?: Record<string, string>;
  /** The step's environment, its expressions evaluated (what a `run:` script would see). */
  env?: Record<string, string>;
  /** Why it was skipped, not known or refused. */
  reason?: string;
  /** What the rehearsal says of the step before it runs (where its calls go). */
  notes?: string[];
  /** Secrets it reads that the rehearsal was not given: '' here, as on GitHub where they are not set. */
  secretsNotGiven?: Set<string>;
  /** The cancel ended it: its outcome and conclusion are `cancelled`. */
  cancelled?: boolean;
  /** failure with continue-on-error: the step failed and the job goes on. */
  continuedOnError?: boolean;
  /** A `run:` step's shell as set (its own or `defaults.run`'s); none: the runner's default. */
  shell?: string;
  /**
   * Why a step that decides its job's verdict was not rehearsed (another's action, a `run:` step
   * without --run-shell, a value only a step not rehearsed sets): the job then passes only as far
   * as rehearsed.
   */
  notRehearsed?: string;
}

export type JobResult = "success" | "failure" | "skipped" | "cancelled";

export interface JobRecord<R extends StepResult = StepResult> {
  /** The job's id. */
  id: string;
  /** As GitHub shows it: its name (evaluated), with the matrix's values for a matrix job. */
  job: string;
  matrix?: Combination;
  ran: boolean;
  result: JobResult;
  /** It ran and failed no step, or did not run; and has no finding. */
  success: boolean;
  steps: StepRecord<R>[];
  /** What a runner would refuse, each naming the job and the step. */
  findings: string[];
  /** Its outputs, for the jobs that need it. */
  outputs: Record<string, string | SetByScript>;
  /** Why it did not run. */
  reason?: string;
  /** Its job summary: what its steps wrote to GITHUB_STEP_SUMMARY, in order (Markdown, masked). */
  summary?: string;
  /** It would run on GitHub, but was not rehearsed (another repository's reusable workflow). */
  notRehearsed?: boolean;
}

/** The `steps` context: each step's outputs, outcome and conclusion, by its id. */
export type StepsContext = Record<
  string,
  { outputs: Record<string, string> | SetByScript; outcome: string; conclusion: string }
>;
