import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { EXIT_CODES } from "../src/exit-codes.js";
import { job, rehearse, run, userMachine } from "./rehearse-machine.js";
import { runCli } from "./run-cli.js";

// `cwp rehearse --run-shell` keeps every step within its bounds on a developer's machine: a
// step's timeout-minutes, the job's, a Ctrl-C or SIGTERM end the step's whole process tree, and
// nothing it started outlives the rehearsal (rehearse-safety.test.ts has the rest of what a
// rehearsal may not do there). Each case cites the GitHub page whose rule it holds it to.

/** The processes whose command line holds `marker`, left on the machine. */
async function processesWith(marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir("/proc"))
    if (/^\d+$/.test(pid)) {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
      if (cmdline.includes(marker)) found.push(cmdline.replace(/\0/g, " "));
    }
  return found;
}

describe("cwp rehearse --run-shell: every step bounded", () => {
  // "Workflow syntax": jobs.<job_id>.steps[*].timeout-minutes, jobs.<job_id>.timeout-minutes:
  // https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax
  it("ends the running step at its job's timeout-minutes, its whole process tree with it", async () => {
    const machine = await userMachine(
      job(run("sleep 41.0731 & sleep 41.0732"), "    timeout-minutes: 0.03\n"),
    );
    const began = Date.now();
    const result = await rehearse(machine);
    expect(result.code).toBe(EXIT_CODES.failed);
    expect(result.stdout).toContain(
      "Error: The job has exceeded the maximum execution time of 0.03 minutes.",
    );
    expect(Date.now() - began).toBeLessThan(30_000);
    expect(await processesWith("41.073")).toEqual([]);
  });

  // A step's timeout-minutes is whole minutes, the fraction cut off, and 0 is none: actions/runner
  // src/Sdk/DTPipelines/Pipelines/ObjectTemplating/PipelineTemplateConverter.cs @02359d2b, line
  // 210 (ConvertToStepTimeout: `(Int32)numberToken.Value`), and src/Runner.Worker/StepsRunner.cs
  // @00a736d9, RunStepAsync (`if (timeoutMinutes > 0)` sets the timeout).
  it("reads a step's timeout-minutes as whole minutes: 0.03 is no timeout", async () => {
    const machine = await userMachine(
      job(`${run("sleep 2.5\necho outlived 0.03 minutes", "        timeout-minutes: 0.03\n")}`),
    );
    const result = await rehearse(machine);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain("outlived 0.03 minutes");
    expect(result.stdout).not.toContain("timed out");
  });

  it("ends a step with its script, and what it left in the background with the job", async () => {
    const machine = await userMachine(
      job(`${run("sleep 42.0911 &\necho server started")}${run("echo second step")}`),
    );
    const began = Date.now();
    const result = await rehearse(machine);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain("second step");
    expect(Date.now() - began).toBeLessThan(30_000);
    expect(await processesWith("42.0911")).toEqual([]);
  });

  // A cancel as GitHub's: the running step is ended, then only the steps whose if: holds after a
  // cancel run (always(), cancelled(); success() is false), and the job is cancelled ("Expressions",
  // status check functions: https://docs.github.com/en/actions/reference/workflows-and-actions/expressions#status-check-functions).
  it("on a first Ctrl-C ends the running step, runs the if: always() and cancelled() steps, skips the rest; exits 130", async () => {
    const machine = await userMachine(
      job(
        `${run("echo started\nsleep 44.0171")}${run("echo never")}${run("echo cleanup ran", "        if: always()\n")}${run("echo cancelled holds", "        if: cancelled()\n")}${run("echo failure holds", "        if: failure()\n")}`,
      ),
    );
    const result = await runCli(["rehearse", machine.workflowFile, "--run-shell"], {
      cwd: machine.clone,
      env: { NO_COLOR: "1", HOME: machine.home },
      cancelWhen: (printed) => printed.includes("│ started"),
    });
    expect(result.code, result.stdout + result.stderr).toBe(130);
    expect(result.stdout).toContain("⊘ cancelled");
    expect(result.stdout).not.toContain("│ never");
    expect(result.stdout).toContain("│ cleanup ran");
    expect(result.stdout).toContain("│ cancelled holds");
    expect(result.stdout).not.toContain("│ failure holds");
    expect(result.stdout).toContain("⊘ job a was cancelled");
    expect(await processesWith("44.0171")).toEqual([]);
  });

  it("on SIGTERM ends every step's process group, then itself", async () => {
    const machine = await userMachine(job(run("trap '' INT\nsleep 43.0127 &\necho waiting\nsleep 43.0128")));
    const result = await runCli(["rehearse", machine.workflowFile, "--run-shell"], {
      cwd: machine.clone,
      env: { NO_COLOR: "1", HOME: machine.home },
      cancelWhen: (printed) => printed.includes("│ waiting"),
      signal: "SIGTERM",
    });
    expect(result.cancelledAt).toBeDefined();
    // 4.5 s at most by design (SIGINT, then SIGTERM, then SIGKILL to each group); the rest of the
    // margin is a loaded machine's.
    expect(result.endedAt - (result.cancelledAt ?? 0)).toBeLessThan(10_000);
    expect(await processesWith("43.012")).toEqual([]);
  });

  // "Running variations of jobs in a workflow": "A matrix will generate a maximum of 256 jobs per
  // workflow run." https://docs.github.com/en/actions/how-tos/write-workflows/choose-what-workflows-do/run-job-variations
  it("refuses a matrix of more than 256 jobs before expanding it (12^6)", async () => {
    const twelve = `[${Array.from({ length: 12 }, (_, i) => i).join(", ")}]`;
    const vectors = ["a", "b", "c", "d", "e", "f"].map((v) => `        ${v}: ${twelve}\n`).join("");
    const machine = await userMachine(job(run("echo never"), `    strategy:\n      matrix:\n${vectors}`));
    const began = Date.now();
    const result = await rehearse(machine, [], {});
    expect(result.code).toBe(EXIT_CODES.failed);
    expect(result.stdout).toContain(
      "strategy.matrix would run 2985984 jobs: a matrix generates at most 256 jobs per workflow run",
    );
    expect(result.stdout).not.toContain("never");
    expect(Date.now() - began).toBeLessThan(10_000);
  });
});
