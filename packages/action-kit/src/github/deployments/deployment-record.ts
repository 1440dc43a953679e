import { randomUUID } from "node:crypto";
import { formatDuration } from "../../engine/duration.js";
import { type SummaryRow, warn } from "../../engine/host.js";
import { redact } from "../../engine/secrets.js";
import { RecordRefused, type StepEnd, type WorkRecord } from "../../engine/work-record.js";
import type { GitHubClient } from "../client.js";
import { answerLost, CREATE_ATTEMPTS, GitHubRefusal } from "../errors.js";
import type { GitHubBudget } from "../retry.js";
import { deactivateEarlier } from "./deactivate.js";

// The step's work as one GitHub deployment: created before anything is sent to the platform,
// `in_progress` once the work has started, and its outcome at the end, also on a cancel or a
// timeout. Once the work has started, GitHub failing to record a status is a warning: the step's
// result is the work's. Every call is within the step's cancel and deadline; the closing has a
// budget of its own (the engine's), so a cancel or a timeout is still recorded.

/** GitHub's limit for a deployment status's description, in characters. */
const DESCRIPTION_MAX = 140;

export interface DeploymentTarget {
  /** The client, made at the first call (its code loaded then: load-client.ts). */
  github: () => Promise<GitHubClient>;
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
  /** The `in_progress` status under way, and how to stop it when the step closes first. */
  #progress: { told: Promise<unknown>; stop: AbortController } | undefined;
  /** The step's cancel and deadline, as `open` was given them. */
  #budget: GitHubBudget | undefined;
  /**
   * What marks the deployments this step creates (their payload's `cwp.mark`): one that GitHub made
   * although its answer was lost is found by it, taken over, and never left without a final state.
   */
  readonly #mark = randomUUID();
  /** Whether a creation's answer was lost: other deployments with our mark may exist. */
  #lost = false;

  constructor(target: DeploymentTarget) {
    this.#target = target;
  }

  async open(budget: { signal: AbortSignal; deadline: number }): Promise<void> {
    this.#budget = budget;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#create(budget);
      } catch (error) {
        const lost = !(error instanceof RecordRefused) && mayHaveCreated(error, budget);
        if (!lost)
          throw error instanceof RecordRefused ? error : notCreated(error, this.#target, budget.signal);
        this.#lost = true;
        const made = await this.#ours(budget).catch(() => []);
        const found = made[0];
        if (found) {
          this.#adopt(found);
          return;
        }
        if (attempt >= CREATE_ATTEMPTS) {
          // Whatever GitHub made under the lost answers is ended: the step starts nothing.
          await this.#retireOrphans(budget);
          throw notCreated(error, this.#target, budget.signal);
        }
      }
    }
  }

  /** Deployments of this environment and commit that carry this step's mark, newest first. */
  async #ours(budget: GitHubBudget): Promise<DeploymentAnswer[]> {
    const t = this.#target;
    const github = await t.github();
    const { data } = await github.rest.repos.listDeployments({
      owner: t.owner,
      repo: t.repo,
      sha: t.sha,
      environment: t.environment,
      per_page: 100,
      request: budget,
    });
    const list = Array.isArray(data) ? (data as DeploymentAnswer[]) : [];
    return list.filter((d) => {
      const payload = typeof d?.payload === "string" ? parseJson(d.payload) : d?.payload;
      return typeof d?.id === "number" && (payload as { cwp?: { mark?: unknown } })?.cwp?.mark === this.#mark;
    });
  }

  #adopt(created: DeploymentAnswer): void {
    this.#id = created.id as number;
    this.#retireEarlier = created.production_environment === true || created.transient_environment === true;
  }

  async #create(budget: { signal: AbortSignal; deadline: number }): Promise<void> {
    const t = this.#target;
    const github = await t.github();
    const { data, status } = await github.rest.repos.createDeployment({
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
      payload: { cwp: { mark: this.#mark, run: t.logUrl } },
      request: { ...budget, creates: true } satisfies GitHubBudget,
    });
    // 202 is GitHub merging a branch; with a commit as the ref it does not happen.
    // Never trusted to be well formed: only an answer with a deployment's id is one.
    const created = data as DeploymentAnswer;
    if (typeof created?.id !== "number")
      throw new UnreadableAnswer(
        `GitHub did not create the deployment (${status}: ${String((data as { message?: unknown })?.message ?? "no deployment in its answer").slice(0, 200)}). Nothing was sent to the platform.`,
      );
    this.#adopt(created);
  }

  started(title: string, usualMs: number | undefined): void {
    if (this.#id === undefined || this.#budget === undefined || this.#progress) return;
    const usually = usualMs === undefined ? "" : `; it usually takes ${formatDuration(usualMs)}`;
    const stop = new AbortController();
    const { signal, deadline } = this.#budget;
    const told = this.#status("in_progress", `${capitalise(title)} is running${usually}.`, {
      signal: AbortSignal.any([signal, stop.signal]),
      deadline,
    });
    this.#progress = { told, stop };
  }

  async close(end: StepEnd, withinMs: number): Promise<void> {
    if (this.#id === undefined || this.#closed) return;
    this.#closed = true;
    // The outcome is what counts: an `in_progress` still under way is given up, never waited for.
    this.#progress?.stop.abort(new Error("the step is closing"));
    await this.#progress?.told;
    const budget = { signal: AbortSignal.timeout(withinMs), deadline: Date.now() + withinMs };
    const t = this.#target;
    if (end.outcome === "succeeded" && t.teardown) {
      // Every earlier deployment of the environment, then this one: the environment is gone.
      await this.#deactivate({ all: true }, budget);
      await this.#status("inactive", end.summary, budget);
      return;
    }
    const state = STATE_OF[end.outcome];
    // Made by GitHub under a lost answer and not taken over (a later creation was): none is left
    // pending for good.
    if (this.#lost) await this.#retireOrphans(budget);
    if (!(await this.#status(state, end.summary, budget))) return;
    // GitHub's auto_inactive retires the earlier successes of other environments itself.
    if (state === "success" && this.#retireEarlier) await this.#deactivate({ all: false }, budget);
  }

  rows(): SummaryRow[] {
    const { environment, environmentUrl } = this.#target;
    return this.#id === undefined
      ? []
      : [
          ["Environment", environment],
          // The user's own input, checked as an http(s) URL without credentials: a link.
          ["Environment URL", environmentUrl, environmentUrl],
          ["Deployment", String(this.#id)],
        ];
  }

  outputs(): Record<string, string | undefined> {
    return { "deployment-id": this.#id === undefined ? undefined : String(this.#id) };
  }

  /** Records a status; a failure is a warning naming the deployment (false), never a throw. */
  async #status(state: State, text: string, budget: GitHubBudget): Promise<boolean> {
    const t = this.#target;
    if (this.#id === undefined) return false;
    try {
      const github = await t.github();
      await github.rest.repos.createDeploymentStatus({
        owner: t.owner,
        repo: t.repo,
        deployment_id: this.#id,
        state,
        log_url: t.logUrl,
        description: describe(text),
        ...(state === "success" && t.environmentUrl ? { environment_url: t.environmentUrl } : {}),
        request: budget,
      });
      return true;
    } catch (error) {
      // Given up for the closing status, which says what the in-progress one would have.
      if (state === "in_progress" && budget.signal.aborted) return false;
      warn(
        `GitHub did not record "${state}" for deployment ${this.#id} of environment ${t.environment} (${reason(error)}); the step's result is unchanged.`,
      );
      return false;
    }
  }

  /** Every deployment with this step's mark but the one it keeps, marked inactive. */
  async #retireOrphans(budget: GitHubBudget): Promise<void> {
    const t = this.#target;
    try {
      for (const orphan of await this.#ours(budget)) {
        if (orphan.id === this.#id) continue;
        const github = await t.github();
        await github.rest.repos.createDeploymentStatus({
          owner: t.owner,
          repo: t.repo,
          deployment_id: orphan.id as number,
          state: "inactive",
          log_url: t.logUrl,
          description: describe(
            this.#id === undefined
              ? "GitHub's answers to its creation were lost; the step started nothing."
              : `Made twice when GitHub's answer was lost; deployment ${this.#id} is the record.`,
          ),
          request: budget,
        });
      }
    } catch (error) {
      warn(
        `GitHub's answer to creating a deployment of environment ${t.environment} was lost and a second one may remain pending (${reason(error)}); ${this.#id === undefined ? "none is the record: the step started nothing" : `deployment ${this.#id} is the record`}.`,
      );
    }
  }

  async #deactivate(which: { all: boolean }, budget: GitHubBudget): Promise<void> {
    const t = this.#target;
    try {
      await deactivateEarlier(
        { ...t, github: await t.github() },
        { except: this.#id, all: which.all, budget, logUrl: t.logUrl },
      );
    } catch (error) {
      warn(
        `GitHub did not mark the earlier deployments of environment ${t.environment} inactive (${reason(error)}); deployment ${this.#id} is recorded.`,
      );
    }
  }
}

/** A 2xx whose body holds no deployment: GitHub acted, but what it made cannot be read. */
class UnreadableAnswer extends Error {}

/** A deployment as GitHub answers it: never trusted to be well formed. */
interface DeploymentAnswer {
  id?: unknown;
  payload?: unknown;
  production_environment?: unknown;
  transient_environment?: unknown;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** A lost answer, or one whose body holds no deployment: GitHub may have made it. */
const mayHaveCreated = (error: unknown, budget: { signal: AbortSignal; deadline: number }) =>
  answerLost(error, budget) || (error instanceof UnreadableAnswer && !budget.signal.aborted);

/** Why GitHub did not create the deployment, and what to change; nothing was sent to the platform. */
function notCreated(error: unknown, t: DeploymentTarget, signal: AbortSignal): RecordRefused {
  const nothing = "Nothing was sent to the platform.";
  if (error instanceof UnreadableAnswer) return new RecordRefused(error.message);
  if (signal.aborted)
    return new RecordRefused(
      `The deployment of environment ${t.environment} was not created: the step was cancelled first. ${nothing}`,
    );
  const what = `GitHub refused to create a deployment of environment ${t.environment} for commit ${t.sha}`;
  if (error instanceof GitHubRefusal && error.rateLimited)
    return new RecordRefused(
      `${what} (${error.told}): try again once it lifts, or use a token with a budget of its own. ${nothing}`,
    );
  if (error instanceof GitHubRefusal && (error.status === 403 || error.status === 404))
    return new RecordRefused(
      `${what} (${error.status}: ${error.reason}): the github-token may not write deployments. Give the job \`deployments: write\` in the workflow's \`permissions:\`. ${nothing}`,
    );
  if (error instanceof GitHubRefusal && error.status === 401)
    return new RecordRefused(
      `${what}: GitHub did not accept the github-token (401: ${error.reason}). ${nothing}`,
    );
  if (!(error instanceof GitHubRefusal))
    return new RecordRefused(
      `The deployment of environment ${t.environment} was not created (${reason(error)}). ${nothing}`,
    );
  return new RecordRefused(`${what} (${reason(error)}). ${nothing}`);
}

const reason = (error: unknown) =>
  error instanceof GitHubRefusal ? error.told : String((error as Error)?.message ?? error);

/** A description GitHub takes: masked values redacted, at most 140 characters. */
function describe(text: string): string {
  const chars = [...redact(text).replace(/\s+/g, " ").trim()];
  return chars.length <= DESCRIPTION_MAX
    ? chars.join("")
    : `${chars.slice(0, DESCRIPTION_MAX - 1).join("")}…`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
