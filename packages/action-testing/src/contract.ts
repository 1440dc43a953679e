import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { ContractSpec } from "./contract-spec.js";
import type { TestPlatform } from "./emulated.js";
import { leakedSecrets, type RunOptions, type RunResult, runBundle } from "./runner.js";
import { useTestPlatform } from "./use-platform.js";
import { forgedCommands } from "./workflow-commands.js";

// The runner-contract cases every action that starts remote work and waits for it must pass,
// run against the committed bundle as the runner runs it.

const HOSTILE = [
  "::add-mask::main",
  "::error::forged error",
  "::stop-commands::guessme",
  "::guessme::",
  "::warning title=x::forged",
];

/** Resolves once `check` holds, looking every 25 ms; gives up (resolving) after 30 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (const end = Date.now() + 30_000; Date.now() < end; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** What every contract file shares: an emulator of its own, the bundle's runs, and their check. */
export interface ContractHarness {
  platform: TestPlatform;
  run(inputs?: Record<string, string>, options?: RunOptions): Promise<RunResult>;
  failureMessage(result: RunResult): string;
}

/**
 * The emulator and runs of one contract file: each part of the contract (the runner's, odd
 * answers, GitHub deployments) is a file of its own, so that vitest runs them side by side (they
 * mostly wait on time). Across every run of the file, no token or secret value is in anything
 * printed or written.
 */
export function contractHarness(spec: ContractSpec): ContractHarness {
  const platform = useTestPlatform();
  const runs: RunResult[] = [];
  // The step counts the emulator's time, as a rehearsal's does: its polls and timeouts are the
  // platform's seconds, not this machine's.
  const run = async (inputs: Record<string, string> = {}, options: RunOptions = {}) => {
    const result = await runBundle(spec.actionDir, {
      ...options,
      inputs: { ...platform.connection(), ...spec.inputs, ...inputs },
      env: { ...(await platform.stepClock()), ...options.env },
    });
    runs.push(result);
    return result;
  };
  beforeEach(() => platform.reset());
  afterAll(async () => {
    for (const result of runs)
      expect(
        leakedSecrets(result, [
          platform.tokens.org,
          platform.tokens.teamViaOrg,
          ...(spec.secrets?.values ?? []),
        ]),
      ).toEqual([]);
  });
  return {
    platform,
    run,
    failureMessage: (result) => result.stdout.split("\n").find((l) => l.startsWith("::error::")) ?? "",
  };
}

/** What both parts of the runner contract check of a run, and of what reached the platform. */
function contractChecks(platform: TestPlatform, spec: ContractSpec) {
  const requests = async (method: string, path: string | RegExp) =>
    (await platform.requests()).filter(
      (r) => r.method === method && (typeof path === "string" ? r.path === path : path.test(r.path)),
    );
  const expectOutputs = (result: RunResult, expected: Record<string, string | RegExp>) => {
    for (const [name, value] of Object.entries(expected)) expect(result.outputs[name], name).toMatch(value);
  };
  const expectAborts = async (count: number) => {
    const aborts = spec.abort ? await requests(spec.abort.method, spec.abort.path) : [];
    expect(aborts).toHaveLength(count);
    // Nothing else but reads follows the start.
    const writes = (await platform.requests()).filter(
      (r) => r.method !== "GET" && !(r.method === "POST" && r.path === spec.start.path),
    );
    expect(writes).toHaveLength(count);
  };

  return { requests, expectOutputs, expectAborts };
}

/** The runner contract's first part: the work's life, from its start to its end, a cancel or a timeout. */
export function runnerContract(spec: ContractSpec): void {
  const { platform, run, failureMessage } = contractHarness(spec);
  const { requests, expectOutputs, expectAborts } = contractChecks(platform, spec);

  describe("runner contract: the work's life", () => {
    it("succeeds, writes every output and a summary, and starts the work once", async () => {
      const result = await run();
      expect(result.code, result.stdout).toBe(0);
      expectOutputs(result, spec.outputs.success);
      expect(result.summary).toContain("✅");
      expect(await requests("POST", spec.start.path)).toHaveLength(1);
    });

    it("fails with exit code 1 naming the resource and its final status when the work fails", async () => {
      await platform.control("POST", "outcomes", { kind: spec.outcome, succeed: false, durationSeconds: 10 });
      const result = await run();
      expect(result.code).toBe(1);
      expectOutputs(result, spec.outputs.failure);
      expect(failureMessage(result)).toMatch(/ended \S+ after (\d+[hm] )*\d+s/);
      expect(result.summary).toContain("❌");
      if (spec.logs) expect(result.summary).toContain("log lines");
    });

    it("aborts the remote work and fails when the timeout passes", async () => {
      await platform.control("POST", "outcomes", { kind: spec.outcome, durationSeconds: 36_000 });
      // The step counts the platform's time (30× here): 90 s of it are 3 s of this machine's, time
      // enough for the start to be answered on a loaded machine.
      const result = await run({ timeout: "90s" });
      expect(result.code).toBe(1);
      expect(failureMessage(result)).toMatch(
        spec.abort
          ? /did not conclude within 1m 30s.*aborted on the platform/
          : /did not conclude within 1m 30s.*may still be running/,
      );
      await expectAborts(spec.abort ? 1 : 0);
    });

    const { running } = spec.answers;
    const { abort } = spec;
    if (abort && running)
      it("when the work concludes as the timeout comes (the abort answered 409), reports what it concluded: a success is a success", async () => {
        // The work succeeds at once, but every read says it runs, until the abort: the platform
        // refuses it (409, concluded), and the read after it is the platform's own.
        await platform.control("POST", "outcomes", { kind: spec.outcome, durationSeconds: 1 });
        const set = Object.fromEntries(Object.entries(running).map(([k, v]) => [`data.${k}`, v]));
        await platform.control("POST", "faults", {
          method: "GET",
          path: `${spec.poll}*`,
          rewrite: { set },
          times: 100_000,
          until: { method: abort.method, path: `${spec.poll}*` },
        });
        const result = await run({ timeout: "90s" });
        expect(result.code, result.stdout).toBe(0);
        expectOutputs(result, spec.outputs.success);
        expect(result.stdout).toMatch(/The abort was refused: .* had already concluded/);
        const aborts = await requests(abort.method, abort.path);
        expect(aborts.map((r) => r.status)).toEqual([409]);
        expect(result.summary).toContain("✅");
      });

    it("never claims success after a timeout on work that says SUCCESS before it has concluded", async () => {
      if (!running) return;
      await platform.control("POST", "outcomes", { kind: spec.outcome, durationSeconds: 36_000 });
      await platform.control("POST", "faults", {
        method: "GET",
        path: `${spec.poll}*`,
        rewrite: {
          set: { [`data.${spec.answers.status}`]: String(spec.outputs.success.status), "data.success": true },
        },
        times: 100_000,
      });
      const result = await run({ timeout: "90s", "abort-on-cancel": "false" });
      expect(result.code).toBe(1);
      expect(failureMessage(result)).toMatch(/did not conclude within 1m 30s/);
      if ("success" in spec.outputs.success) expect(result.outputs.success).toBe("false");
      if ("image" in spec.outputs.success) expect(result.outputs.image).toBe("");
      if ("concluded" in spec.outputs.success) expect(result.outputs.concluded).toBe("false");
    });

    it("on SIGINT aborts the remote work within 5 seconds and fails clearly", async () => {
      await platform.control("POST", "outcomes", { kind: spec.outcome, durationSeconds: 36_000 });
      const result = await run({}, { cancelWhen: (printed) => printed.includes("Started ") });
      expect(result.code).toBe(1);
      expect(result.endedAt - (result.cancelledAt ?? 0)).toBeLessThan(5000);
      expect(failureMessage(result)).toMatch(
        spec.abort ? /cancelled.*aborted on the platform/ : /cancelled.*may still be running/,
      );
      await expectAborts(spec.abort ? 1 : 0);
    });

    /** Holds the start's answer `delayMs` after the platform acted on it. */
    const holdStart = (delayMs: number) =>
      platform.control("POST", "faults", { method: "POST", path: spec.start.path, after: true, delayMs });
    /** Resolves once the platform holds the start (its fault was taken), for a SIGINT right then. */
    const startIsHeld = () =>
      until(
        async () => ((await platform.control("GET", "faults")) as { faults: unknown[] }).faults.length === 0,
      );

    /** Answers `path` (a prefix) with a 429 that says the hour's budget is spent for 60 s more. */
    const budgetSpent = (path: string) =>
      platform.control("POST", "faults", {
        method: "GET",
        path: `${path}*`,
        status: 429,
        headers: { "x-ratelimit-limit": "1000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "60" },
        times: 1000,
      });

    it("says the work may have started when the start is answered 2xx with a body it cannot read", async () => {
      await platform.control("POST", "faults", {
        method: "POST",
        path: spec.start.path,
        malformed: true,
        after: true,
      });
      const result = await run();
      expect(result.code).toBe(1);
      expect(failureMessage(result)).toMatch(/may have acted on it \(the outcome is unknown\)\. Check /);
      expect(await requests("POST", spec.start.path)).toHaveLength(1);
    });

    it("ends at its timeout when the start hangs, saying the work may have started", async () => {
      await holdStart(20_000);
      const begun = Date.now();
      const result = await run({ timeout: "1m" });
      expect(result.code).toBe(1);
      expect(result.endedAt - begun).toBeLessThan(9000);
      expect(failureMessage(result)).toMatch(/outcome is unknown.*sent at \d{4}-/);
    });

    if (spec.abort)
      it("with the hour's budget spent, a cancel's abort goes out at once", async () => {
        await platform.control("POST", "outcomes", { kind: spec.outcome, durationSeconds: 36_000 });
        let spent: Promise<unknown> | undefined;
        let printed = "";
        const refused = until(async () =>
          (await platform.requests()).some((r) => r.status === 429 && r.path.startsWith(spec.poll)),
        );
        const result = await run(
          {},
          {
            onOutput: (text) => {
              printed += text;
              if (printed.includes("Started ")) spent ??= budgetSpent(spec.poll);
            },
            cancelOn: refused,
          },
        );
        await spent;
        expect(result.code).toBe(1);
        expect(result.endedAt - (result.cancelledAt ?? 0)).toBeLessThan(9000);
        expect(failureMessage(result)).toMatch(/cancelled.*aborted on the platform/);
        expect(await requests(spec.abort?.method ?? "", spec.abort?.path ?? "")).toHaveLength(1);
      });

    it("on SIGINT while the start is unanswered, lets it answer, then aborts what it started", async () => {
      await platform.control("POST", "outcomes", { kind: spec.outcome, durationSeconds: 36_000 });
      await holdStart(2500);
      const result = await run({}, { cancelOn: startIsHeld() });
      expect(result.cancelledAt, "cancelled while the start was held").toBeDefined();
      expect(result.code).toBe(1);
      expect(result.endedAt - (result.cancelledAt ?? 0)).toBeLessThan(9000);
      expect(failureMessage(result)).toMatch(
        spec.abort
          ? /Cancelled with the workflow while .+ was being started: it had started; it was aborted on the platform/
          : /Cancelled with the workflow while .+ was being started: it had started; the platform cannot abort it/,
      );
      expect(await requests("POST", spec.start.path)).toHaveLength(1);
      await expectAborts(spec.abort ? 1 : 0);
    });

    it("on SIGINT while the start stays unanswered, ends in time saying the work may have started and where to look", async () => {
      await holdStart(15_000);
      const result = await run({}, { cancelOn: startIsHeld() });
      expect(result.cancelledAt, "cancelled while the start was held").toBeDefined();
      expect(result.code).toBe(1);
      expect(result.endedAt - (result.cancelledAt ?? 0)).toBeLessThan(9000);
      expect(failureMessage(result)).toMatch(
        /had no answer 5 s later: .*The outcome is unknown: the platform may have acted .*Check .+ \(the request was sent at \d{4}-\d\d-\d\dT[\d:.]+Z\)/,
      );
      // Never sent again (the held one is logged only once it is answered).
      expect((await requests("POST", spec.start.path)).length).toBeLessThanOrEqual(1);
    });

    if (spec.abort)
      it("leaves the work running on cancel when abort-on-cancel is false", async () => {
        await platform.control("POST", "outcomes", { kind: spec.outcome, durationSeconds: 36_000 });
        const result = await run(
          { "abort-on-cancel": "false" },
          { cancelWhen: (printed) => printed.includes("Started ") },
        );
        expect(result.code).toBe(1);
        expect(failureMessage(result)).toMatch(/left running/);
        await expectAborts(0);
      });

    it("keeps waiting through 429s and 5xx while polling", async () => {
      const faults = [
        { method: "GET", path: `${spec.poll}*`, status: 503, times: 2 },
        {
          method: "GET",
          path: `${spec.poll}*`,
          status: 429,
          headers: { "x-ratelimit-reset": "1" },
          times: 1,
        },
        { method: "GET", path: `${spec.poll}*`, status: 502, times: 1 },
      ];
      // Injected once the work has started, so they meet the polls rather than any read before.
      let injected: Promise<unknown> | undefined;
      let printed = "";
      const result = await run(
        {},
        {
          onOutput: (text) => {
            printed += text;
            if (printed.includes("Started ")) injected ??= platform.control("POST", "faults", faults);
          },
        },
      );
      await injected;
      expect(result.code, result.stdout).toBe(0);
      expect((await platform.requests()).filter((r) => r.status >= 429).length).toBeGreaterThanOrEqual(4);
    });

    it(
      spec.start.idempotent
        ? "retries an idempotent start answered 503, and succeeds"
        : "sends the start once when it is answered 503, and says the outcome is unknown",
      async () => {
        await platform.control("POST", "faults", {
          method: "POST",
          path: spec.start.path,
          status: 503,
          after: true,
        });
        const result = await run();
        if (spec.start.idempotent) {
          expect(result.code, result.stdout).toBe(0);
          expect(await requests("POST", spec.start.path)).toHaveLength(2);
        } else {
          expect(result.code).toBe(1);
          expect(failureMessage(result)).toMatch(/outcome is unknown/);
          expect(await requests("POST", spec.start.path)).toHaveLength(1);
        }
      },
    );

    it("returns once started when wait is false (timeout in the format the actions print)", async () => {
      const result = await run({ wait: "false", timeout: "1h 30m" });
      expect(result.code).toBe(0);
      if ("concluded" in result.outputs) expect(result.outputs.concluded).toBe("false");
      expect(result.summary).toContain("started");
    });

    it("uses the /v1/teams/{teamId} twin with team-id", async () => {
      const result = await run({ "team-id": "platform", "api-token": platform.tokens.teamViaOrg });
      expect(result.code, result.stdout).toBe(0);
      const paths = (await platform.requests()).map((r) => r.path);
      expect(paths.length).toBeGreaterThan(1);
      expect(paths.every((p) => p.startsWith("/v1/teams/platform/"))).toBe(true);
    });
  });
}

/**
 * The runner contract's second part, in each action's file of its own (runner-output.test.ts) so
 * that the two run side by side: inputs refused before anything is sent, the work's remote logs,
 * and what the step prints (the platform's ids and statuses, secrets it echoes, masks).
 */
export function runnerOutputContract(spec: ContractSpec): void {
  const { platform, run, failureMessage } = contractHarness(spec);
  const { expectOutputs, expectAborts } = contractChecks(platform, spec);

  describe("runner contract: inputs, logs and what it prints", () => {
    // The inputs every action reads: each bad one is said with every other at once (action-kit's
    // runWork), so cases that set different inputs share one run, each still a test of its own of
    // what that run said. An action's own cases run alone: its cross-input rules come one at a time.
    const common = [
      { inputs: { timeout: "soon" }, input: "timeout" },
      { inputs: { wait: "maybe" }, input: "wait" },
      { inputs: { "team-id": "not a team" }, input: "team-id" },
      { inputs: { "api-url": "ftp://example.com" }, input: "api-url" },
      { inputs: { "api-url": "https://api.example.com/?x=1" }, input: "api-url" },
      { inputs: { "api-url": "https://api.example.com/#frag" }, input: "api-url" },
      { inputs: { "api-token": "" }, input: "api-token" },
      // A header cannot carry these: refused as input, not sent as an outcome nobody can know.
      { inputs: { "api-token": "cwp_token\r\nX-Injected: 1" }, input: "api-token" },
      { inputs: { "api-token": "cwp_tøken_✓" }, input: "api-token" },
    ];
    const together: Record<string, string>[] = [];
    const sharing = common.map((bad) => {
      let inputs = together.find((run) => Object.keys(bad.inputs).every((name) => !(name in run)));
      if (!inputs) {
        inputs = {};
        together.push(inputs);
      }
      Object.assign(inputs, bad.inputs);
      return { input: bad.input, inputs };
    });
    const refusals = new Map<Record<string, string>, Promise<{ result: RunResult; sent: unknown[] }>>();
    /** The run of `inputs` (once for cases that share them), and what reached the platform by its end. */
    const refusal = (inputs: Record<string, string>) => {
      let refused = refusals.get(inputs);
      if (!refused) {
        refused = run(inputs).then(async (result) => ({ result, sent: await platform.requests() }));
        refusals.set(inputs, refused);
      }
      return refused;
    };
    for (const bad of [...sharing, ...spec.malformed]) {
      it(`refuses a malformed ${bad.input} before sending anything`, async () => {
        const { result, sent } = await refusal(bad.inputs);
        expect(result.code).toBe(1);
        expect(failureMessage(result)).toContain(`Input "${bad.input}"`);
        expect(failureMessage(result)).toContain("Nothing was sent");
        expect(sent).toEqual([]);
      });
    }

    const logs = spec.logs;
    if (logs) {
      /** Every log read hangs for a minute. */
      const logsHang = () =>
        platform.control("POST", "faults", {
          method: "GET",
          path: `${logs.path}*`,
          delayMs: 60_000,
          times: 1000,
        });

      it("is not held by a log endpoint that hangs once the work has concluded", async () => {
        await platform.control("POST", "outcomes", { kind: spec.outcome, durationSeconds: 1 });
        await logsHang();
        const begun = Date.now();
        const result = await run({ timeout: "1m" });
        expect(result.code, result.stdout).toBe(0);
        expect(result.endedAt - begun).toBeLessThan(7000);
        expectOutputs(result, spec.outputs.success);
      });

      if (spec.abort)
        it("aborts first on a cancel when the log endpoint hangs, and ends before the runner kills it", async () => {
          await platform.control("POST", "outcomes", { kind: spec.outcome, durationSeconds: 36_000 });
          await logsHang();
          const result = await run({}, { cancelWhen: (printed) => printed.includes("Started ") });
          expect(result.code).toBe(1);
          expect(result.endedAt - (result.cancelledAt ?? 0)).toBeLessThan(8000);
          expect(failureMessage(result)).toMatch(/cancelled.*aborted on the platform/);
          await expectAborts(1);
        });

      it("keeps the job summary of a failure small when its log lines are huge, saying what was cut", async () => {
        await platform.control("POST", "outcomes", {
          kind: spec.outcome,
          // A second of real time: the lines are read while the work runs, not only in the
          // 2-second drain after it, which a loaded two-core machine can outlast.
          durationSeconds: 30,
          succeed: false,
          // Nine lines of 100 kB (the control plane takes a body of 1 MiB at most).
          logLines: Array.from({ length: 9 }, (_, i) => `line ${i} ${"x".repeat(100_000)}`),
        });
        const result = await run();
        expect(result.code).toBe(1);
        expect(result.summary).toContain("log lines");
        expect(result.summary).toContain("more characters cut");
        expect(Buffer.byteLength(result.summary)).toBeLessThan(64 * 1024);
      });

      for (const cap of [1, 7, 100])
        it(`streams every log line once when the platform answers at most ${cap} a request`, async () => {
          // Pairs of lines share a timestamp, so pages of 1 or 7 end part-way through one.
          const lines = Array.from({ length: 30 }, (_, i) => `step ${i + 1} of 30`);
          await platform.control("POST", "outcomes", {
            kind: spec.outcome,
            durationSeconds: 20,
            logLines: lines,
            linesPerInstant: 2,
          });
          await platform.control("POST", "settings", { logPageCap: cap });
          const result = await run();
          expect(result.code, result.stdout).toBe(0);
          const printed = result.stdout.split("\n");
          for (const line of lines)
            expect(
              printed.filter((l) => l === line),
              line,
            ).toHaveLength(1);
        });

      it("prints hostile remote log lines only inside a stop-commands block", async () => {
        await platform.control("POST", "outcomes", {
          kind: spec.outcome,
          durationSeconds: 20,
          logLines: HOSTILE,
        });
        const result = await run();
        expect(result.code, result.stdout).toBe(0);
        // Each printed as it came, and none acted on as the runner reads them.
        for (const line of HOSTILE) expect(result.stdout.split("\n")).toContain(line);
        expect(forgedCommands(result.stdout, HOSTILE)).toEqual([]);
      });
    }

    it("prints the platform's ids, statuses and messages so that none of them acts as a workflow command", async () => {
      const forged = {
        id: "w1\n::add-mask::main",
        status: "FAILED\n::warning::forged status ##[add-mask]main",
        message: "boom\r\n::error::forged message ##[stop-commands]x",
      };
      await platform.control("POST", "outcomes", {
        kind: spec.outcome,
        durationSeconds: 5,
        succeed: false,
        ...forged,
      });
      // A status outside the resource's vocabulary may never conclude: the timeout ends the wait
      // (a minute of the platform's, 2 s here).
      const result = await run({ timeout: "1m" });
      expect(result.code).toBe(1);
      expect(result.stdout, "the hostile status was printed").toContain("forged status");
      // As the runner reads the output, in both its forms (`##[` acts anywhere in a line).
      expect(forgedCommands(result.stdout, Object.values(forged))).toEqual([]);
      // Nor is such a status a step output, where a later `run:` could expand it.
      expect(result.outputs.status).toBe("");
      expect(result.stdout).toContain("::warning::The platform's value for output status is not a status");
    });

    it("never shows the token or a secret value that an error from the platform echoes back", async () => {
      const echoed = [platform.tokens.org, ...(spec.secrets?.values ?? [])];
      const echo = echoed.join(" | ");
      await platform.control("POST", "faults", {
        method: "POST",
        path: spec.start.path,
        status: 400,
        body: {
          error: {
            status: 400,
            message: `invalid request: Authorization: Bearer ${platform.tokens.org}; body ${echo}`,
            id: `err_${platform.tokens.org}`,
            details: { "headers.authorization": [`Bearer ${platform.tokens.org}`], [`body.${echo}`]: [echo] },
          },
        },
      });
      const result = await run(spec.secrets?.inputs ?? {});
      expect(result.code).toBe(1);
      expect(failureMessage(result)).toContain("failed with 400");
      expect(leakedSecrets(result, echoed)).toEqual([]);
    });

    if (spec.secrets) {
      const secrets = spec.secrets;
      it("masks secret values it was given and never prints them", async () => {
        const result = await run(secrets.inputs);
        expect(result.code, result.stdout).toBe(0);
        for (const value of secrets.values) expect(result.stdout).toContain(`::add-mask::${value}`);
        expect(leakedSecrets(result, secrets.values)).toEqual([]);
      });
    }
  });
}
