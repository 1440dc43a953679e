import { formatDuration } from "../../engine/duration.js";
import { warn } from "../../engine/host.js";
import { redact } from "../../engine/secrets.js";
import { RecordRefused, type StepEnd, type WorkRecord } from "../../engine/work-record.js";
import { type GitHubClient, GitHubRefusal } from "../client.js";
import { deactivateEarlier } from "./deactivate.js";

// The step's work as one GitHub deployment: created before anything is sent to the platform,
// `in_progress` once the work has started, and its outcome at the end, also on a cancel or a
// timeout. Once the work has started, GitHub failing to record a status is a warning: the step's
// result is the work's.

/** GitHub's limit for a deployment status's description, in characters. */
const DESCRIPTION_MAX = 140;

export interface DeploymentTarget {
  github: GitHubClient;
  owner: string;
  repo: string;
  environment: string;
  environmentUrl: string | undefined;
  /** Empty: GitHub's default (production when the environment is named `production`). */
  production: boolean | undefined;
  transient: boolean;
  /** A teardown: after the work succeeds, every deployment of the environment becomes inactive. */
  teardown: boolean;
  sha: string;
  /** This workflow run, where GitHub's "View logs" leads. */
  logUrl: string;
  /** The action, for the deployment's description. */
  action: string;
}

/** A GitHub state for how the step ended: never left queued or in progress. */
const STATE_OF = {
  succeeded: "success",
  failed: "failure",
  unknown: "error",
  stopped: "inactive",
  abandoned: "error",
} as const satisfies Record<StepEnd["outcome"], string>;

type State = "in_progress" | (typeof STATE_OF)[keyof typeof STATE_OF];

export class DeploymentRecord implements WorkRecord {
  readonly #target: DeploymentTarget;
  #id: number | undefined;
  /**
   * Whether retiring earlier deployments is ours to do: GitHub's auto_inactive skips production and
   * transient environments (as GitHub answered the creation, not as we guessed).
   */
  #retireEarlier = false;
  #closed = false;

  constructor(target: DeploymentTarget) {
    this.#target = target;
  }

  async open(signal: AbortSignal): Promise<void> {
    const t = this.#target;
    try {
      const { data, status } = await t.github.rest.repos.createDeployment({
        owner: t.owner,
        repo: t.repo,
        // The commit itself: a branch name would have GitHub merge the default branch into it.
        ref: t.sha,
        auto_merge: false,
        // Without it GitHub verifies every check of the commit, this workflow's own still pending.
        required_contexts: [],
        environment: t.environment,
        description: describe(`${t.action} by cwp`),
        transient_environment: t.transient,
        ...(t.production !== undefined ? { production_environment: t.production } : {}),
        request: { signal },
      });
      // 202 is GitHub merging a branch; with a commit as the ref it does not happen.
      if (!("id" in data))
        throw new RecordRefused(
          `GitHub did not create the deployment (${status}: ${data.message ?? ""}). Nothing was sent to the platform.`,
        );
      this.#id = data.id;
      this.#retireEarlier = data.production_environment === true || data.transient_environment === true;
    } catch (error) {
      throw error instanceof RecordRefused ? error : refusedToCreate(error, t);
    }
  }

  async started(title: string, usualMs: number | undefined): Promise<void> {
    const usually = usualMs === undefined ? "" : `; it usually takes ${formatDuration(usualMs)}`;
    await this.#status(
      "in_progress",
      `${capitalise(title)} is running${usually}.`,
      AbortSignal.timeout(30_000),
    );
  }

  async close(end: StepEnd, withinMs: number): Promise<void> {
    if (this.#id === undefined || this.#closed) return;
    this.#closed = true;
    const signal = AbortSignal.timeout(withinMs);
    const t = this.#target;
    if (end.outcome === "succeeded" && t.teardown) {
      // Every earlier deployment of the environment, then this one: the environment is gone.
      await this.#deactivate({ all: true }, signal);
      await this.#status("inactive", end.summary, signal);
      return;
    }
    const state = STATE_OF[end.outcome];
    if (!(await this.#status(state, end.summary, signal))) return;
    // GitHub's auto_inactive retires the earlier successes of other environments itself.
    if (state === "success" && this.#retireEarlier) await this.#deactivate({ all: false }, signal);
  }

  rows(): Array<[string, string | undefined]> {
    return this.#id === undefined
      ? []
      : [
          ["Environment", this.#target.environment],
          ["Environment URL", this.#target.environmentUrl],
          ["Deployment", String(this.#id)],
        ];
  }

  outputs(): Record<string, string | undefined> {
    return { "deployment-id": this.#id === undefined ? undefined : String(this.#id) };
  }

  /** Records a status; a failure is a warning naming the deployment (false), never a throw. */
  async #status(state: State, text: string, signal: AbortSignal): Promise<boolean> {
    const t = this.#target;
    if (this.#id === undefined) return false;
    try {
      await t.github.rest.repos.createDeploymentStatus({
        owner: t.owner,
        repo: t.repo,
        deployment_id: this.#id,
        state,
        log_url: t.logUrl,
        description: describe(text),
        ...(state === "success" && t.environmentUrl ? { environment_url: t.environmentUrl } : {}),
        request: { signal },
      });
      return true;
    } catch (error) {
      warn(
        `GitHub did not record "${state}" for deployment ${this.#id} of environment ${t.environment} (${reason(error)}); the step's result is unchanged.`,
      );
      return false;
    }
  }

  async #deactivate(which: { all: boolean }, signal: AbortSignal): Promise<void> {
    const t = this.#target;
    try {
      await deactivateEarlier(t, { except: this.#id, all: which.all, signal, logUrl: t.logUrl });
    } catch (error) {
      warn(
        `GitHub did not mark the earlier deployments of environment ${t.environment} inactive (${reason(error)}); deployment ${this.#id} is recorded.`,
      );
    }
  }
}

/** Why GitHub did not create the deployment, and what to change; nothing was sent to the platform. */
function refusedToCreate(error: unknown, t: DeploymentTarget): RecordRefused {
  const what = `GitHub refused to create a deployment of environment ${t.environment} for commit ${t.sha}`;
  const nothing = "Nothing was sent to the platform.";
  if (error instanceof GitHubRefusal && (error.status === 403 || error.status === 404))
    return new RecordRefused(
      `${what} (${error.status}: ${error.reason}): the github-token may not write deployments. Give the job \`deployments: write\` in the workflow's \`permissions:\`. ${nothing}`,
    );
  if (error instanceof GitHubRefusal && error.status === 401)
    return new RecordRefused(
      `${what}: GitHub did not accept the github-token (401: ${error.reason}). ${nothing}`,
    );
  return new RecordRefused(`${what} (${reason(error)}). ${nothing}`);
}

const reason = (error: unknown) =>
  error instanceof GitHubRefusal ? `${error.status}: ${error.reason}` : (error as Error).message;

/** A description GitHub takes: masked values redacted, at most 140 characters. */
function describe(text: string): string {
  const chars = [...redact(text).replace(/\s+/g, " ").trim()];
  return chars.length <= DESCRIPTION_MAX
    ? chars.join("")
    : `${chars.slice(0, DESCRIPTION_MAX - 1).join("")}…`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
