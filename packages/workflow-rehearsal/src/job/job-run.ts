import { defaultVariables } from "../contexts.js";
import type { StatusFunctions } from "../expressions.js";
import type { LocalAction } from "../local-actions.js";
import type { Permissions } from "../permissions.js";
import type {
  RehearsalOptions,
  ScriptResult,
  StepRecord,
  StepResult,
  StepsContext,
  StepTimeout,
  ToolAsked,
} from "../records.js";
import { prependPath } from "../runner/file-commands.js";
import type { RunDefaults, Step } from "../workflow.js";
import { statusOf } from "./status.js";

// The state of one run of a job (one matrix combination), as the runner's job ExecutionContext
// holds it: what every step kind reads and changes. The env and PATH that steps' file commands
// change, the job's result (job.status, success() and failure() of its steps), its post steps,
// its findings, and the record of each step.

/** A list of steps being run: the job's, or a composite action's inside one of its steps. */
export interface StepsFrame {
  /** Who the steps belong to, for findings: "job build", "job build, action ./.github/actions/x". */
  where: string;
  steps: readonly Step[];
  /** The contexts the steps read (github, inputs, matrix, ...), `steps` and `env` aside. */
  contexts: Record<string, unknown>;
  /** `defaults.run`: the job's; an action's steps get none, as on GitHub. */
  defaults: RunDefaults;
  /** The env its steps start from: the frame's own, with what steps wrote to GITHUB_ENV since. */
  env: Record<string, string>;
  /** Its `steps` context: a composite action's steps have their own, as on GitHub. */
  stepsContext: StepsContext;
  /** One of its steps failed (not continuing on error): the job's result, or the action's. */
  failed: boolean;
  /** How many local actions deep these steps are (0: the job's). */
  depth: number;
  /** Before each step's name: the local action's, for its steps ("Set up › "). */
  prefix: string;
  /** The frame of the step that runs this one's action. */
  parent?: StepsFrame;
}

/** Another repository's action, as the job's set up left it (`prepare-actions.ts`). */
export type PreparedAction =
  | { kind: "read"; action: LocalAction; commit: string }
  | { kind: "refused"; message: string }
  | { kind: "unreachable"; message: string };

/** A post step (a JavaScript action's `runs.post`): says whether it passed (or did not run). */
export type PostStep = (status: StatusFunctions) => Promise<boolean>;

export class JobRun<R extends StepResult = StepResult> {
  /** GITHUB_PATH's folders, latest first: shared by every step of the job. */
  readonly path: string[] = [];
  /** Post steps, in the order they were registered (run last first). */
  readonly posts: PostStep[] = [];
  /** The steps whose action's post is registered: once, by its pre or its main, whichever runs first. */
  readonly postsRegistered = new Set<Step>();
  readonly records: StepRecord<R>[] = [];
  /** The job's own steps. */
  readonly root: StepsFrame;
  /** Other repositories' actions, by `uses`, downloaded and read once this job run (`prepare-actions.ts`). */
  readonly actions = new Map<string, Promise<PreparedAction>>();
  /** What each step's action saved so far (GITHUB_STATE, its pre's then its main's): the STATE_* of what runs after. */
  readonly actionStates = new Map<Step, Record<string, string>>();

  constructor(
    readonly options: RehearsalOptions<R>,
    root: Omit<StepsFrame, "stepsContext" | "failed" | "depth" | "prefix">,
    /** The job's `timeout-minutes`. */
    readonly timeoutMinutes: number,
    /** What a runner would refuse, each naming the job and the step. */
    readonly findings: string[],
    /** The workflow token's permissions in this job (`permissions.ts`). */
    readonly permissions: Permissions,
  ) {
    this.root = { ...root, stepsContext: {}, failed: false, depth: 0, prefix: "" };
    this.#leftMs = timeoutMinutes * 60_000;
  }

  /**
   * What is left of the job's `timeout-minutes`, ms: each step spends its time from it, a script
   * this machine's and one of ours the platform's (`timed`), so a job whose builds take longer
   * than its timeout on the platform times out as on GitHub, however fast the emulator runs.
   */
  #leftMs: number;

  /** The run was cancelled (the host's first Ctrl-C or SIGTERM): the steps after run as after a cancel. */
  get cancelled(): boolean {
    return this.options.signal?.aborted ?? false;
  }

  /** The job's env: the workflow's and the job's env:, with what its steps wrote to GITHUB_ENV. */
  get env(): Record<string, string> {
    return this.root.env;
  }

  /**
   * The job's result so far for the step-level status functions and `job.status`: failure once a
   * step failed without continue-on-error, or a post step failed (actions/runner
   * src/Runner.Worker/StepsRunner.cs @00a736d9, "Update the job result").
   */
  status(): StatusFunctions {
    return statusOf({ failed: () => this.root.failed, cancelled: () => this.cancelled });
  }

  /** A step's steps below `frame` to run: the frame of a composite action's steps. */
  frameBelow(
    parent: StepsFrame,
    frame: Pick<StepsFrame, "where" | "steps" | "contexts" | "env" | "prefix">,
  ): StepsFrame {
    return { ...frame, defaults: {}, stepsContext: {}, failed: false, depth: parent.depth + 1, parent };
  }

  /** Tools that setup steps not run asked for, not yet said: the next script says what it finds. */
  readonly toolsAsked: ToolAsked[] = [];
  /** The job summary so far: each step's GITHUB_STEP_SUMMARY, in the order the steps ran. */
  readonly summaries: string[] = [];

  /**
   * What a step wrote to its files: GITHUB_ENV and GITHUB_PATH (or set-env and add-path) are the
   * env of the steps after it, in its frame and every frame above it up to the job's, and the
   * job's PATH; GITHUB_STEP_SUMMARY is the job summary's next part.
   */
  applyFiles(frame: StepsFrame, written: ScriptResult) {
    for (let at: StepsFrame | undefined = frame; at !== undefined; at = at.parent)
      at.env = { ...at.env, ...written.env };
    prependPath(this.path, written.path);
    this.addSummary(written);
  }

  /** What a step wrote to GITHUB_STEP_SUMMARY, after what the steps before it wrote. */
  addSummary(result: StepResult): void {
    if (result.summary !== undefined && result.summary !== "") this.summaries.push(result.summary);
  }

  /** Records a step that ran, was read, skipped or refused, or a post step that ran. */
  end(record: StepRecord<R>): void {
    this.records.push(record);
    this.options.onStepEnd?.(record);
  }

  /** The runner's default variables (GITHUB_*, RUNNER_*) for a step with this `github` context. */
  variables(github: Record<string, unknown>): Record<string, string> {
    return defaultVariables(github, this.root.contexts.runner as Record<string, unknown>);
  }

  /**
   * Runs a step within how long it may run (`run` is given it): its own timeout (ms, none:
   * undefined), within what is left of the job's; what it took is then spent from the job's, on
   * the time it counts: a script this machine's, one of ours the platform's (`platformNow`).
   */
  async timed<T>(
    counts: "machine" | "platform",
    stepTimeoutMs: number | undefined,
    run: (timeout: StepTimeout) => Promise<T>,
  ): Promise<T> {
    const now = counts === "platform" ? (this.options.platformNow ?? Date.now) : Date.now;
    const from = now();
    try {
      return await run(this.#timeout(stepTimeoutMs));
    } finally {
      this.#leftMs -= now() - from;
    }
  }

  /**
   * A step's own timeout is the runner's, in its words (StepsRunner.cs @00a736d9, RunStepAsync:
   * "The action has timed out."); the job's is GitHub's service's, which cancels the job.
   */
  #timeout(stepTimeoutMs: number | undefined): StepTimeout {
    const left = Math.max(0, this.#leftMs);
    return stepTimeoutMs !== undefined && stepTimeoutMs <= left
      ? { ms: stepTimeoutMs, message: "The action has timed out." }
      : {
          ms: left,
          message: `The job has exceeded the maximum execution time of ${this.timeoutMinutes} minutes.`,
        };
  }

  /** Step debug logging is on: the secret or variable ACTIONS_STEP_DEBUG is true. */
  get debug(): boolean {
    return [this.options.secrets?.ACTIONS_STEP_DEBUG, this.options.vars?.ACTIONS_STEP_DEBUG].some(
      (value) => value?.toLowerCase() === "true",
    );
  }

  /** The post steps, last first, with the job's status then: one that fails fails the job (PostJobSteps). */
  async runPosts(): Promise<void> {
    for (const post of [...this.posts].reverse()) if (!(await post(this.status()))) this.root.failed = true;
  }
}
