import { readFile, stat } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { job, rehearse, run, userMachine } from "./rehearse-machine.js";

// The job summary: what each step writes to GITHUB_STEP_SUMMARY, one after another, is the run's
// page on GitHub ("Adding a job summary",
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#adding-a-job-summary).
// A rehearsal prints it at the job's end and keeps it in its folder, secrets masked; a step's
// summary over 1 MiB is refused in the runner's words (src/Runner.Common/Constants.cs,
// UnsupportedSummarySize) and the step goes on.

const SECRET = "summary_secret_value_31";

describe("the job summary", () => {
  it("is printed at the job's end and kept in the rehearsal's folder, in the order the steps wrote it, masked", async () => {
    const machine = await userMachine(
      job(
        `${run('echo "## Build of $GITHUB_REF_NAME" >> "$GITHUB_STEP_SUMMARY"\necho "| image | token |" >> "$GITHUB_STEP_SUMMARY"')}${run('echo "| web:1 | $TOKEN |" >> "$GITHUB_STEP_SUMMARY"', `        env:\n          TOKEN: \${{ secrets.TOKEN }}\n`)}`,
      ),
    );
    const result = await rehearse(machine, ["--secret", `TOKEN=${SECRET}`]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).not.toContain(SECRET);
    const heading = /job summary \(kept in (\S+summaries\/01-a\.md)\):/.exec(result.stdout);
    expect(heading, result.stdout).not.toBeNull();
    // Each step's part after the one before, a blank line between them.
    const after = result.stdout
      .slice(result.stdout.indexOf(heading?.[0] ?? ""))
      .split("\n")
      .slice(1, 5);
    expect(after).toEqual(["    ## Build of main", "    | image | token |", "    ", "    | web:1 | *** |"]);
    const kept = heading?.[1] ?? "";
    expect(await readFile(kept, "utf8")).toBe("## Build of main\n| image | token |\n\n| web:1 | *** |\n");
    expect((await stat(kept)).mode & 0o077).toBe(0);
  });

  it("refuses a step's summary over 1 MiB in the runner's words; the step passes", async () => {
    const machine = await userMachine(
      job(run('head -c 1048577 /dev/zero | tr "\\\\0" x >> "$GITHUB_STEP_SUMMARY"')),
    );
    const result = await rehearse(machine);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(
      "Error: $GITHUB_STEP_SUMMARY upload aborted, supports content up to a size of 1024k, got 1024k.",
    );
    expect(result.stdout).not.toContain("job summary");
  });
});

describe("the job summary of a job with our steps", () => {
  it("has what our action writes to it on GitHub, after the scripts' parts, in the order the steps ran", async () => {
    const machine = await userMachine(
      job(
        `${run('echo "## Before the build" >> "$GITHUB_STEP_SUMMARY"')}      - uses: acme/cwp/actions/trigger-build@v1\n        with:\n          project-id: platform-web\n          service-id: web\n          api-token: \${{ secrets.CWP_API_TOKEN }}\n`,
      ),
    );
    const result = await rehearse(machine, ["--secret", "CWP_API_TOKEN=any"]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const summary = result.stdout.slice(result.stdout.indexOf("job summary")).split("\n");
    expect(summary[1]).toBe("    ## Before the build");
    expect(
      summary.some((line) =>
        /^ {4}### ✅ trigger-build: build \S+ of service web in project platform-web \(success\)$/.test(line),
      ),
    ).toBe(true);
    expect(summary).toContain("    | Status | SUCCESS |");
  });
});
