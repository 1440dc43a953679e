import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rehearse, userMachine } from "./rehearse-machine.js";

// Jobs that do not need each other run at the same time, as on GitHub, each on a runner of its own
// (--jobs, default the machine's cores). Shown without a clock: jobs a and b each wait until both
// have started, which only jobs side by side can do (one after the other, the first would wait out
// its 60 s and fail); c needs both, so it starts only once they have ended.

const waitsForBoth = (who: string) => `  ${who}:
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo "${who} on $HOME" > ~/who
          touch "$MEET/${who}"
          for i in $(seq 600); do [ -e "$MEET/a" ] && [ -e "$MEET/b" ] && break; sleep 0.1; done
          [ -e "$MEET/a" ] && [ -e "$MEET/b" ]
          echo "${who} met the other; HOME still mine: $(cat ~/who)"
        env:
          MEET: \${{ vars.MEET }}
`;

const WORKFLOW = `on: push
jobs:
${waitsForBoth("a")}${waitsForBoth("b")}  c:
    needs: [a, b]
    runs-on: ubuntu-latest
    steps:
      - run: |
          [ -e "$MEET/a" ] && [ -e "$MEET/b" ] && echo "c after both"
        env:
          MEET: \${{ vars.MEET }}
`;

describe("jobs side by side", () => {
  it("runs jobs that do not need each other at the same time, each on its own runner, and a job that needs them after; each job's lines together", async () => {
    const machine = await userMachine(WORKFLOW);
    const meet = await mkdtemp(join(tmpdir(), "cwp-meet-"));
    const result = await rehearse(machine, ["--jobs", "2", "--var", `MEET=${meet}`]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines).toContain(
      "  side by side: up to 2 jobs at a time (--jobs), each as soon as the jobs it needs have ended; each job's lines printed together as it ends",
    );
    // Two runners: two HOMEs, each job reading back its own.
    const homes = ["a", "b"].map((who) => {
      const met = lines.find((l) => l.startsWith(`    │ ${who} met the other; HOME still mine: ${who} on `));
      expect(met, result.stdout).toBeDefined();
      return met?.split(" on ").at(-1);
    });
    expect(new Set(homes).size).toBe(2);
    expect(lines).toContain("    │ c after both");
    // Grouped: from a job's heading to its verdict, only its own lines.
    for (const who of ["a", "b"]) {
      const start = lines.indexOf(`job ${who}`);
      const end = lines.indexOf(`✔ job ${who} would pass`);
      expect(start, result.stdout).toBeGreaterThanOrEqual(0);
      expect(lines.slice(start, end).some((l) => l.startsWith("job ") && l !== `job ${who}`)).toBe(false);
    }
    expect(lines.indexOf("job c")).toBeGreaterThan(
      Math.max(lines.indexOf("✔ job a would pass"), lines.indexOf("✔ job b would pass")),
    );
  });

  it("--job-lines prefixed: each line as it comes, after its job's name", async () => {
    const machine = await userMachine(WORKFLOW);
    const meet = await mkdtemp(join(tmpdir(), "cwp-meet-"));
    const result = await rehearse(machine, [
      "--jobs",
      "2",
      "--job-lines",
      "prefixed",
      "--var",
      `MEET=${meet}`,
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^\[a\] {5}│ a met the other/m);
    expect(result.stdout).toMatch(/^\[b\] {5}│ b met the other/m);
    expect(result.stdout).toMatch(/^\[c\] {5}│ c after both/m);
  });

  it("refuses a --jobs that is not a whole number above 0, and a --job-lines it does not know, as bad input", async () => {
    const machine = await userMachine(WORKFLOW);
    for (const [flag, value, said] of [
      ["--jobs", "0", '--jobs must be a whole number above 0 (got "0")'],
      ["--jobs", "1.5", '--jobs must be a whole number above 0 (got "1.5")'],
      ["--job-lines", "mixed", '--job-lines must be grouped or prefixed (got "mixed")'],
    ] as const) {
      const result = await rehearse(machine, [flag, value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(said);
    }
  });
});
