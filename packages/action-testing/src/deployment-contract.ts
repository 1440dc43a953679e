import { describe, expect, it } from "vitest";
import { contractHarness } from "./contract.js";
import type { ContractSpec } from "./contract-spec.js";
import { type Deployment, type DeploymentState, latestState } from "./github/objects.js";
import { MAIN_SHA, READ_ONLY_TOKEN } from "./github/stand-in.js";
import { useGitHubStandIn } from "./github/use-stand-in.js";
import { leakedSecrets, type RunOptions } from "./runner.js";

// The GitHub Deployments cases every action that starts work must pass (issue 27), run against the
// committed bundle and a stand-in GitHub that checks each request against GitHub's own OpenAPI
// description.

const GITHUB_TOKEN = "ghs_deployments_workflow_token_0123";
/** The workflow run, as the runner's variables name it. */
const RUN = { GITHUB_SERVER_URL: "https://github.example", GITHUB_RUN_ID: "4242", GITHUB_RUN_ATTEMPT: "1" };
const RUN_URL = "https://github.example/acme/shop/actions/runs/4242/attempts/1";
const EARLIER_RUN_URL = "https://github.example/acme/shop/actions/runs/4000/attempts/1";
/** A pull request's head commit, and the merge commit GitHub checks out for it (on no branch). */
const HEAD_SHA = "fedcba9876543210fedcba9876543210fedcba98";
const MERGE_SHA = "1111111111111111111111111111111111111111";

/** A deployment an earlier run made, its one status `state`. */
function earlier(
  id: number,
  state: DeploymentState,
  of: { environment: string; production?: boolean; transient?: boolean; sha?: string },
): Deployment {
  const sha = of.sha ?? MAIN_SHA;
  return {
    id,
    sha,
    ref: sha,
    task: "deploy",
    environment: of.environment,
    description: "",
    production: of.production ?? false,
    transient: of.transient ?? false,
    payload: "",
    statuses: [{ id: id + 1, state, description: "", logUrl: EARLIER_RUN_URL, environmentUrl: "" }],
  };
}

/**
 * `cases`: "work", the cases where the recorder meets the action's own work (a start, a failure, a
 * cancel that aborts, a timeout, nothing sent without the permission), which every action runs;
 * "github", the recorder's dealings with GitHub alone (its pages, inputs, summary, environments)
 * and "github-faults", GitHub failing it (rate limits, 502s, hangs, lost answers, garbage): one code
 * path in action-kit whatever the work, which one action runs through its bundle (run-template),
 * each in a file of its own beside the other. Each bundle ran all
 * 25 before: 125 bundle runs, the test stage's largest share of CPU.
 */
export function deploymentContract(
  spec: ContractSpec,
  { cases = "work" }: { cases?: "work" | "github" | "github-faults" } = {},
): void {
  const { platform, run, failureMessage } = contractHarness(spec);
  const skip = (() => {}) as unknown as typeof it;
  const workCase = cases === "work" ? it : skip;
  const githubCase = cases === "github" ? it : skip;
  const faultCase = cases === "github-faults" ? it : skip;
  describe("GitHub deployment", () => {
    // Every request the step made is one GitHub would take.
    const github = useGitHubStandIn(GITHUB_TOKEN);

    /**
     * A run with `environment: staging` unless said, GitHub holding only the `earlier` deployments;
     * the work takes half a second (on the emulator's clock, 15 s) unless `work` says otherwise.
     */
    const deploy = async ({
      inputs = {},
      options = {},
      earlier = [],
      work = { durationSeconds: 15 },
    }: {
      inputs?: Record<string, string>;
      options?: RunOptions;
      earlier?: Deployment[];
      work?: { durationSeconds: number; succeed?: boolean };
    } = {}) => {
      github().deployments.splice(0, Infinity, ...earlier);
      await platform.control("POST", "outcomes", { kind: spec.outcome, ...work });
      const result = await run(
        { environment: "staging", "github-token": GITHUB_TOKEN, ...inputs },
        { ...options, env: { GITHUB_API_URL: github().url, ...RUN, ...options.env } },
      );
      expect(leakedSecrets(result, [GITHUB_TOKEN])).toEqual([]);
      return result;
    };
    const states = (d: Deployment | undefined) => d?.statuses.map((s) => s.state);
    /** What the step asked the platform to do: reads before the start (an addon's backup) are not. */
    const writes = async () => (await platform.requests()).filter((r) => r.method !== "GET");
    const longWork = { durationSeconds: 36_000 };

    workCase(
      "records a push's work as one deployment of its commit: in progress, then success with the URL",
      async () => {
        const result = await deploy({ inputs: { "environment-url": "https://staging.shop.example" } });
        expect(result.code, result.stdout).toBe(0);
        expect(github().deployments).toHaveLength(1);
        const [deployment] = github().deployments;
        expect(deployment).toMatchObject({ sha: MAIN_SHA, ref: MAIN_SHA, environment: "staging" });
        expect(states(deployment)).toEqual(["in_progress", "success"]);
        const [running, success] = deployment?.statuses ?? [];
        expect(running?.logUrl).toBe(RUN_URL);
        expect(running?.description).toMatch(/ is running/);
        expect(success?.environmentUrl).toBe("https://staging.shop.example");
        expect(result.outputs["deployment-id"]).toBe(String(deployment?.id));
        expect(result.summary).toContain("staging");
        // (Its text, not a link: the summary keeps URLs from becoming links.)
        expect(result.summary).toContain("staging.shop.example");
      },
    );

    workCase(
      "on a pull request deploys its head commit, not the merge commit, and records a failure",
      async () => {
        const event = {
          name: "pull_request",
          sha: MERGE_SHA,
          ref: "refs/pull/7/merge",
          payload: {
            number: 7,
            pull_request: { number: 7, head: { sha: HEAD_SHA, ref: "feature/checkout" } },
          },
        };
        const result = await deploy({
          inputs: { environment: "pr-7", "transient-environment": "true" },
          options: { event },
          work: { durationSeconds: 15, succeed: false },
        });
        expect(result.code).toBe(1);
        expect(github().deployments).toHaveLength(1);
        expect(github().deployments[0]).toMatchObject({ sha: HEAD_SHA, ref: HEAD_SHA, transient: true });
        expect(states(github().deployments[0])).toEqual(["in_progress", "failure"]);
      },
    );

    workCase("on a cancel records the deployment as ended before the runner kills the step", async () => {
      const result = await deploy({
        options: { cancelWhen: (printed) => printed.includes("Started ") },
        work: longWork,
      });
      expect(result.code).toBe(1);
      expect(result.endedAt - (result.cancelledAt ?? 0)).toBeLessThan(9000);
      // Aborted: no longer active; not abortable: it may still run, which the step cannot tell.
      expect(latestState(github().deployments[0] as Deployment)).toBe(spec.abort ? "inactive" : "error");
    });

    workCase("at its timeout records the deployment as ended, never left in progress", async () => {
      // 90 s of the platform's, 3 s here: time enough for the start on a loaded machine.
      const result = await deploy({ inputs: { timeout: "90s" }, work: longWork });
      expect(result.code).toBe(1);
      expect(latestState(github().deployments[0] as Deployment)).toBe(spec.abort ? "inactive" : "error");
    });

    workCase(
      "without deployments: write fails before anything is sent to the platform, naming the permission",
      async () => {
        const result = await deploy({ inputs: { "github-token": READ_ONLY_TOKEN } });
        expect(result.code).toBe(1);
        expect(failureMessage(result)).toMatch(/403: Resource not accessible by integration/);
        expect(failureMessage(result)).toContain("`deployments: write`");
        expect(failureMessage(result)).toContain("`permissions:`");
        expect(failureMessage(result)).toContain("Nothing was sent to the platform");
        expect(await writes()).toEqual([]);
        expect(github().deployments).toEqual([]);
        expect(leakedSecrets(result, [READ_ONLY_TOKEN])).toEqual([]);
      },
    );

    workCase("without environment asks nothing of GitHub", async () => {
      const calls = github().calls.length;
      const result = await deploy({ inputs: { environment: "" } });
      expect(result.code, result.stdout).toBe(0);
      expect(github().calls.length).toBe(calls);
      expect(result.outputs["deployment-id"]).toBe("");
    });

    faultCase(
      "keeps the work's result when GitHub refuses to record a status, naming the deployment",
      async () => {
        github().fail({
          operationId: "repos/create-deployment-status",
          status: 422,
          message: "Validation Failed",
          times: 2,
        });
        const result = await deploy();
        expect(result.code, result.stdout).toBe(0);
        const id = github().deployments[0]?.id;
        expect(result.stdout).toMatch(
          new RegExp(`::warning::GitHub did not record "in_progress" for deployment ${id}`),
        );
        expect(result.stdout).toMatch(
          new RegExp(`::warning::GitHub did not record "success" for deployment ${id}`),
        );
        expect(
          (await platform.requests()).filter((r) => r.method === "POST" && r.path === spec.start.path),
        ).toHaveLength(1);
      },
    );

    githubCase(
      "on success retires the production environment's earlier deployments, which auto_inactive does not",
      async () => {
        const result = await deploy({
          inputs: { environment: "production" },
          earlier: [
            earlier(10, "success", { environment: "production", production: true }),
            earlier(20, "inactive", { environment: "production", production: true }),
            earlier(30, "failure", { environment: "production", production: true }),
            earlier(40, "success", { environment: "production", production: true }),
          ],
        });
        expect(result.code, result.stdout).toBe(0);
        const mine = github().deployments.at(-1);
        expect(mine?.production).toBe(true);
        expect(latestState(mine as Deployment)).toBe("success");
        // The whole list walked: a success behind an inactive one (a cancelled run's) retired too,
        // the failure kept.
        expect(github().deployments.map((d) => [d.id, latestState(d)])).toEqual([
          [10, "inactive"],
          [20, "inactive"],
          [30, "failure"],
          [40, "inactive"],
          [mine?.id, "success"],
        ]);
      },
    );

    githubCase("after success, a cancel and success again, one production deployment is active", async () => {
      const production = { environment: "production" };
      const first = await deploy({ inputs: production });
      expect(first.code, first.stdout).toBe(0);
      await platform.reset();
      const cancelled = await deploy({
        inputs: production,
        options: { cancelWhen: (printed) => printed.includes("Started ") },
        work: longWork,
        earlier: [...github().deployments],
      });
      expect(cancelled.code).toBe(1);
      await platform.reset();
      const again = await deploy({ inputs: production, earlier: [...github().deployments] });
      expect(again.code, again.stdout).toBe(0);
      expect(github().deployments.map((d) => latestState(d))).toEqual([
        "inactive",
        spec.abort ? "inactive" : "error",
        "success",
      ]);
    });

    githubCase(
      "retires hundreds of earlier deployments in one run, every page within the step's budget",
      async () => {
        const many = Array.from({ length: 250 }, (_, i) =>
          earlier(10_000 + 2 * i, "success", { environment: "production", production: true }),
        );
        const result = await deploy({ inputs: { environment: "production" }, earlier: many });
        expect(result.code, result.stdout).toBe(0);
        const active = github().deployments.filter((d) => latestState(d) === "success");
        expect(active.map((d) => d.id)).toEqual([github().deployments.at(-1)?.id]);
      },
    );

    githubCase("ends a walk whose Link names its own page as the next, reading no item twice", async () => {
      github().fail({ operationId: "repos/list-deployments", loopLink: true, times: 1000 });
      const before = github().calls.length;
      const result = await deploy({
        inputs: { environment: "production" },
        earlier: [earlier(10, "success", { environment: "production", production: true })],
      });
      expect(result.code, result.stdout).toBe(0);
      const calls = github().calls.slice(before);
      expect(calls.filter((c) => c.startsWith("GET ") && c.endsWith("/deployments"))).toHaveLength(2);
      expect(calls.filter((c) => c.endsWith("/10/statuses"))).toHaveLength(2);
    });

    workCase(
      "a cancel reaches the platform's abort while GitHub hangs on the in-progress status",
      async () => {
        github().fail({
          operationId: "repos/create-deployment-status",
          when: { state: "in_progress" },
          delayMs: Number.POSITIVE_INFINITY,
        });
        const result = await deploy({
          options: { cancelWhen: (printed) => printed.includes("Started ") },
          work: longWork,
        });
        expect(result.code).toBe(1);
        expect(result.endedAt - (result.cancelledAt ?? 0)).toBeLessThan(7500);
        if (spec.abort) {
          const aborts = (await platform.requests()).filter(
            (r) => r.method === spec.abort?.method && spec.abort.path.test(r.path),
          );
          expect(aborts).toHaveLength(1);
        }
        expect(latestState(github().deployments[0] as Deployment)).toBe(spec.abort ? "inactive" : "error");
      },
    );

    faultCase(
      "timeout bounds the step when GitHub hangs on every status",
      async () => {
        github().fail({
          operationId: "repos/create-deployment-status",
          delayMs: Number.POSITIVE_INFINITY,
          times: 100,
        });
        const began = Date.now();
        const result = await deploy({ inputs: { timeout: "2s" }, work: longWork });
        expect(result.code).toBe(1);
        // 2 s of timeout, at most 5 s of closing past it, and the process's own start.
        expect(result.endedAt - began).toBeLessThan(2000 + 5000 + 3000);
      },
      20_000,
    );

    faultCase(
      "records the final status through GitHub's 502 (retried), leaving nothing in progress",
      async () => {
        github().fail({
          operationId: "repos/create-deployment-status",
          when: { state: "success" },
          status: 502,
          message: "Server Error",
        });
        const result = await deploy();
        expect(result.code, result.stdout).toBe(0);
        expect(result.stdout).not.toContain("::warning::");
        expect(latestState(github().deployments[0] as Deployment)).toBe("success");
      },
    );

    faultCase(
      "waits out GitHub's secondary rate limit (retry-after), and says a spent rate limit as one",
      async () => {
        github().fail({
          operationId: "repos/create-deployment",
          status: 429,
          message: "You have exceeded a secondary rate limit.",
          headers: { "retry-after": "1" },
        });
        const waited = await deploy();
        expect(waited.code, waited.stdout).toBe(0);
        expect(github().deployments).toHaveLength(1);

        await platform.reset();
        const reset = String(Math.floor(Date.now() / 1000) + 3600);
        github().fail({
          operationId: "repos/create-deployment",
          status: 403,
          message: "API rate limit exceeded for installation.",
          headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset },
        });
        const limited = await deploy();
        expect(limited.code).toBe(1);
        expect(failureMessage(limited)).toMatch(/rate limit/);
        expect(failureMessage(limited)).not.toContain("deployments: write");
        expect(await writes()).toEqual([]);
      },
    );

    faultCase(
      "reads absurd rate-limit headers as not said: the work's result kept, told as a rate limit",
      async () => {
        const absurd: Array<Record<string, string>> = [
          { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "99999999999999" },
          { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "-5" },
          { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "soon" },
          { "retry-after": "99999999999999" },
          { "retry-after": "-1" },
        ];
        for (const headers of absurd) {
          await platform.reset();
          github().fail({
            operationId: "repos/create-deployment-status",
            status: 403,
            message: "API rate limit exceeded for installation.",
            headers,
            when: { state: "success" },
            times: 10,
          });
          // The step's time bounds the wait for a limit whose end GitHub did not say sensibly: a
          // minute of the platform's (2 s here), past the work's 15 s.
          const result = await deploy({ inputs: { timeout: "1m" } });
          expect(result.code, JSON.stringify(headers)).toBe(0);
          expect(result.stdout).not.toContain("RangeError");
          expect(result.stdout).toMatch(
            /::warning::GitHub did not record "success" for deployment .*rate limit/,
          );
        }
      },
    );

    githubCase(
      "refuses a bad input, and environment-url with credentials or spaces, before any request anywhere",
      async () => {
        const calls = github().calls.length;
        for (const inputs of [
          ...spec.malformed.map((m) => m.inputs),
          { "environment-url": "https://deploy:hunter2@staging.shop.example" },
          { "environment-url": "https://staging.shop.example/a b" },
        ]) {
          const result = await deploy({ inputs });
          expect(result.code).toBe(1);
          expect(failureMessage(result)).toContain("Nothing was sent to the platform");
        }
        expect(github().calls.length).toBe(calls);
        expect(github().deployments).toEqual([]);
        expect(await platform.requests()).toEqual([]);
      },
    );

    faultCase(
      "takes over a deployment GitHub made although its answer was lost (a 502 after, or garbage)",
      async () => {
        for (const lost of [{ status: 502, after: true }, { raw: "<html>502 Bad Gateway</html>" }]) {
          await platform.reset();
          github().fail({ operationId: "repos/create-deployment", ...lost });
          const result = await deploy();
          expect(result.code, result.stdout).toBe(0);
          // One deployment, found by its mark, with its final state; the work started once.
          expect(github().deployments).toHaveLength(1);
          expect(latestState(github().deployments[0] as Deployment)).toBe("success");
          expect(result.outputs["deployment-id"]).toBe(String(github().deployments[0]?.id));
          expect(
            (await platform.requests()).filter((r) => r.method === "POST" && r.path === spec.start.path),
          ).toHaveLength(1);
        }
      },
    );

    faultCase(
      "creates the deployment once more when a 502 came before GitHub made it, and only then",
      async () => {
        github().fail({ operationId: "repos/create-deployment", status: 502 });
        const result = await deploy();
        expect(result.code, result.stdout).toBe(0);
        expect(github().deployments).toHaveLength(1);
        expect(latestState(github().deployments[0] as Deployment)).toBe("success");
      },
    );

    faultCase(
      "when every creation's answer is lost, starts nothing and leaves nothing GitHub made pending",
      async () => {
        github().fail({ operationId: "repos/create-deployment", status: 502, after: true, times: 3 });
        github().fail({ operationId: "repos/list-deployments", raw: "{not json", times: 3 });
        const result = await deploy();
        expect(result.code).toBe(1);
        expect(failureMessage(result)).toContain("Nothing was sent to the platform");
        expect(await writes()).toEqual([]);
        expect(github().deployments.length).toBeGreaterThan(0);
        for (const d of github().deployments) expect(latestState(d)).toBe("inactive");
      },
    );

    faultCase("takes GitHub's garbage for no answer: a success kept", async () => {
      github().fail({ operationId: "repos/list-deployments", raw: "{not json" });
      const listed = await deploy({ inputs: { environment: "production" } });
      expect(listed.code, listed.stdout).toBe(0);
      expect(listed.stdout).toMatch(
        /::warning::GitHub did not mark the earlier deployments of environment production inactive/,
      );
    });

    githubCase(
      "warns when GITHUB_API_URL is plain http to another machine; a name that does not resolve fails at once",
      async () => {
        const result = await deploy({
          inputs: { timeout: "2s" },
          options: { env: { GITHUB_API_URL: "http://github.invalid" } },
        });
        expect(result.code).toBe(1);
        expect(result.stdout).toContain("::warning::GITHUB_API_URL is plain http to another machine");
        // The creation never left this machine: nothing to look for, no second one that may be pending.
        expect(failureMessage(result)).toMatch(
          /was not created \(GitHub POST .* could not be reached: getaddrinfo/,
        );
        expect(result.stdout).not.toContain("may remain pending");
        expect(await writes()).toEqual([]);
      },
    );

    githubCase("links the environment's URL in the job summary", async () => {
      const result = await deploy({ inputs: { "environment-url": "https://staging.shop.example/(x)" } });
      expect(result.code, result.stdout).toBe(0);
      expect(result.summary).toContain("](https://staging.shop.example/%28x%29)");
    });

    githubCase("with deactivate-environment tears the environment down once the work succeeds", async () => {
      const pr7 = { environment: "pr-7", transient: true, sha: HEAD_SHA };
      const result = await deploy({
        inputs: { environment: "pr-7", "transient-environment": "true", "deactivate-environment": "true" },
        earlier: [earlier(50, "success", pr7), earlier(52, "inactive", pr7), earlier(54, "failure", pr7)],
      });
      expect(result.code, result.stdout).toBe(0);
      expect(github().deployments.map((d) => latestState(d))).toEqual([
        "inactive",
        "inactive",
        "inactive",
        "inactive",
      ]);
    });

    githubCase("refuses environment with wait: false, before any request anywhere", async () => {
      const calls = github().calls.length;
      const result = await deploy({ inputs: { wait: "false" } });
      expect(result.code).toBe(1);
      expect(failureMessage(result)).toContain('Input "wait"');
      expect(await platform.requests()).toEqual([]);
      expect(github().calls.length).toBe(calls);
    });
  });
}
