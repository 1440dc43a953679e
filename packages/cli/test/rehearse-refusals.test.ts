import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startOtherSite } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { HEAD_SHA, payloadFile, rehearse, root, SECRET } from "./example-rehearsals.js";
import { runCli } from "./run-cli.js";

// `cwp rehearse` refusing what a runner would refuse, keeping secrets, refusing bad input, as a
// user runs it from the clone against the emulator on examples/world.yaml (the example workflows:
// rehearse.test.ts). Each rehearsal starts its own emulator, so they run side by side.

/** Given to one rehearsal only (through a file), so that no other test's command line holds it. */
const CHILD_SECRET = "cwp_child_secret_value_0077";

describe.concurrent("cwp rehearse: what a runner would refuse, secrets, bad input", () => {
  it("names a misspelt input, an output no step sets, an unknown step and an expression it cannot evaluate; exits 1", async () => {
    const result = await rehearse([
      "packages/cli/test/fixtures/runner-would-refuse.yml",
      "--secret",
      `DEPLOY_TOKEN=${SECRET}`,
    ]);
    expect(result.code).toBe(1);
    const findings = result.stdout.split("\n").filter((l) => l.startsWith("  finding:"));
    expect(findings).toHaveLength(4);
    // As GitHub names it: the unexpected input and the valid ones (then our "did you mean").
    expect(findings[0]).toMatch(
      /^ {2}finding: job gate, step "acme\/cwp\/actions\/run-template@0123456789abcdef0123456789abcdef01234567": Unexpected input\(s\) 'templat-id', valid inputs are \['api-token', 'api-url', .*'template-id'.*\]; did you mean 'template-id' for 'templat-id'\?$/,
    );
    expect(findings.slice(1, 3)).toEqual([
      '  finding: job gate, step "Run echo "$RUN"" reads steps.gate.outputs.run_id, which run-template does not set; did you mean "run-id"?',
      '  finding: job gate, step "Run echo "$RUN"" reads steps.build.outputs.image, but no step before it has the id "build"',
    ]);
    // GitHub's own evaluator refuses what it cannot evaluate, in its words.
    expect(findings[3]).toMatch(/^ {2}finding: job gate, step "Run echo "\$TAG"": .*JSON/);
    // The step of ours ran, as a runner runs it without the input, and failed on what is missing.
    // Named as the action names it (its with: key), never as a flag of the CLI.
    expect(result.stdout).toMatch(/│ error: template-id: is required/);
    expect(result.stdout).not.toContain("--template-id");
    // Said where the step is printed, in one word: the finding, never "not rehearsed (GitHub only)".
    expect(result.stdout).toMatch(
      /^ {6}templat-id: .* \(finding: not an input of run-template; did you mean 'template-id'\?\)$/m,
    );
    expect(result.stdout).not.toMatch(/GitHub only\): .*templat-id/);
    expect(result.stdout).toContain("TOKEN: ***");
    expect(result.stdout).not.toContain(SECRET);
    expect(result.stdout).toContain("✘ job gate would fail");
  });

  it("says an --api-url that answers another product's JSON is not the API, and that nothing was started there", async () => {
    // Every answer of the API has "data" (the spec, §1): this one is another product's.
    const site = await startOtherSite(
      200,
      { "content-type": "application/json" },
      '{"ok": true, "items": []}',
    );
    const { url } = site;
    try {
      const result = await runCli(
        [
          "rehearse",
          "examples/workflows/build-on-push.yml",
          "--api-url",
          url,
          "--sha",
          HEAD_SHA,
          "--secret",
          "CWP_API_TOKEN",
        ],
        { cwd: root, env: { NO_COLOR: "1", CWP_API_TOKEN: SECRET } },
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        `│ error: POST /v1/projects/shop/services/image-builder/build answered 200 with JSON that is not the API's (no "data", which every answer of the API has): ${url} is not the API: check the API URL (api-url / CWP_API_URL). Nothing was started there`,
      );
      expect(result.stdout).not.toMatch(/outcome is unknown|may have acted/);
      expect(result.stdout).toContain("✘ job build would fail");
      expect(result.stdout + result.stderr).not.toContain(SECRET);
    } finally {
      site.close();
    }
  });

  it("--json: one JSON document on stdout with each job's verdict and what was not rehearsed; the lines on stderr", async () => {
    const passing = await rehearse(["examples/workflows/build-on-push.yml", "--json"]);
    expect(passing.code).toBe(0);
    expect(passing.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(passing.stdout)).toMatchObject({
      workflow: "examples/workflows/build-on-push.yml",
      event: "push",
      runs: true,
      verdict: "pass",
      exitCode: 0,
      jobs: [{ id: "build", verdict: "pass", notRehearsed: [], failedSteps: [] }],
    });
    expect(passing.stderr).toContain("✔ job build would pass");
    // Each job's time on its runner, for a script to compare (bench/rehearse-ci reads it).
    expect(JSON.parse(passing.stdout).jobs[0].seconds).toBeGreaterThan(0);
    const partly = await rehearse([
      "examples/workflows/daily-focus-export.yml",
      "--event",
      "schedule",
      "--json",
    ]);
    const json = JSON.parse(partly.stdout);
    expect(json.verdict).toBe("pass-as-far-as-rehearsed");
    expect(json.jobs[0].notRehearsed[0]).toEqual({
      step: "Last month's first day to today (UTC)",
      why: "a run: step, which runs only with --run-shell",
    });
    // An output only a step not rehearsed sets is not known: null, never "".
    expect(Object.values(json.jobs[0].outputs).every((v) => v === null || typeof v === "string")).toBe(true);
    const refused = await rehearse(["examples/workflows/nope.yml", "--json"]);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout)).toEqual({
      error: { kind: "input", exitCode: 2, message: "examples/workflows/nope.yml: cannot be read (ENOENT)" },
    });
  });

  it("refuses bad input with exit 2 and one line naming it, starting nothing", async () => {
    const missing = await rehearse(["examples/workflows/nope.yml"]);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      "error: examples/workflows/nope.yml: cannot be read (ENOENT)\n",
    ]);
    const job = await rehearse(["examples/workflows/build-on-push.yml", "--job", "deploy"]);
    expect([job.code, job.stderr]).toEqual([
      2,
      "error: examples/workflows/build-on-push.yml has no job deploy; its jobs: build\n",
    ]);
    const event = await rehearse(["examples/workflows/deploy-production.yml", "--event", "schedule"]);
    expect(event.code).toBe(2);
    expect(event.stderr).toContain("does not run on schedule (its on: push); rehearse it with --event push");
    const secret = await rehearse(["examples/workflows/build-on-push.yml", "--secret", SECRET]);
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain(
      "--secret takes NAME=VALUE, or the NAME of an environment variable that holds it (no such variable is set)",
    );
    expect(secret.stderr).not.toContain(SECRET);
    for (const r of [missing, job, event, secret]) expect(r.stdout).toBe("");
  });

  it("refuses a workflow GitHub would refuse, with GitHub's message, line and column; hostile shapes too, without a stack", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-rehearse-bad-"));
    const steps = "    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n";
    const cases: Array<[string, RegExp]> = [
      [
        `on: push\njobs:\n  a:\n    runs-on: x\n    stpes:\n      - run: echo\n`,
        /\(Line: 5, Col: 5\): Unexpected value 'stpes'/,
      ],
      [`on: pushh\njobs:\n  a:\n${steps}`, /\(Line: 1, Col: 5\): Unexpected value 'pushh'/],
      [
        `on: push\njobs:\n  b:\n${steps}  a:\n    needs: constructor\n${steps}`,
        /depends on unknown job 'constructor'/,
      ],
      [
        `on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: 5\n`,
        /\(Line: 6, Col: 15\): job a, step 1: Expected format/,
      ],
      [
        `on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - if: \${{ ${"(".repeat(20_000)}true${")".repeat(20_000)} }}\n        run: echo\n`,
        /\(Line: 6/,
      ],
    ];
    for (const [text, message] of cases) {
      const file = join(dir, "w.yml");
      await writeFile(file, text);
      const result = await runCli(["rehearse", file], { env: { NO_COLOR: "1" } });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stdout).toBe("");
    }
  });

  it("a matrix and a needs output, as docs/rehearse.md shows them", { timeout: 60_000 }, async () => {
    const result = await rehearse(["packages/cli/test/fixtures/matrix-and-needs.yml", "--ref", "main"]);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain(
      `Rehearsing packages/cli/test/fixtures/matrix-and-needs.yml (Release main (${HEAD_SHA}))`,
    );
    const verdicts = result.stdout.split("\n").filter((l) => /^(✔|✘)? ?job .*(:| would)/.test(l));
    expect(verdicts).toEqual([
      "✔ job build (web) would pass",
      "✔ job build (image-builder) would pass",
      "✔ job release would pass",
    ]);
    expect(result.stdout).toMatch(/service-id: image-builder/);
    expect(result.stdout).toMatch(/built: SUCCESS/);
    expect(result.stdout).toMatch(/made up \(only a real run has them\): github\.run_id=1/);
  });

  it("puts no secret on a child's command line, whatever input it is given to; --secret NAME and --secret-file read it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-rehearse-secret-"));
    const file = join(dir, "w.yml");
    await writeFile(
      file,
      'on: push\njobs:\n  a:\n    runs-on: x\n    env:\n      CWP_API_TOKEN: ${{ secrets.CWP_API_TOKEN }}\n    steps:\n      - uses: acme/cwp/actions/run-template@v1\n        with:\n          template-id: release\n          arguments: \'{"key": "${{ secrets.RELEASE_KEY }}"}\'\n',
    );
    const dotenv = join(dir, ".env");
    await writeFile(dotenv, `RELEASE_KEY=${CHILD_SECRET}\n`);
    // Every command line the rehearsal gives a process, recorded where the process is started.
    const spawnLog = join(dir, "spawned.jsonl");
    await writeFile(spawnLog, "");
    const result = await runCli(
      [
        "rehearse",
        file,
        "--secret-file",
        dotenv,
        "--secret",
        "EXTRA",
        "--secret",
        "CWP_API_TOKEN",
        "--world",
        join(root, "examples/world.yaml"),
      ],
      {
        env: {
          NO_COLOR: "1",
          EXTRA: "another-secret-value-77",
          CWP_API_TOKEN: "cwp-token-value-55",
          CWP_TEST_SPAWN_LOG: spawnLog,
        },
        nodeOptions: ["--require", fileURLToPath(new URL("./record-spawns.cjs", import.meta.url))],
      },
    );
    const seen = (await readFile(spawnLog, "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as string[]).join(" "));
    expect(result.code, result.stdout).toBe(0);
    expect(seen.some((c) => c.includes("run-template"))).toBe(true);
    expect(
      seen.filter((c) =>
        [CHILD_SECRET, "another-secret-value-77", "cwp-token-value-55"].some((s) => c.includes(s)),
      ),
    ).toEqual([]);
    expect(result.stdout).not.toContain(CHILD_SECRET);
    expect(result.stdout).toContain('"key": "***"');
  });

  it("--help shows no default of {} for a repeatable flag", async () => {
    const result = await runCli(["rehearse", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("(default: {})");
    expect(result.stdout).toContain("--run-shell");
  });

  it("prints every name and value of the workflow inert; a tag's --ref is refs/tags/...; a pull request's number follows its pull request", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-rehearse-inert-"));
    const file = join(dir, "w.yml");
    // A job name and an env key and value with CSI, OSC and C1 controls in them.
    await writeFile(
      file,
      'on: [push, pull_request]\njobs:\n  a:\n    name: "red \\e[31m \\e]0;title\\a \\u009b2J"\n    runs-on: x\n    steps:\n      - run: echo\n        env:\n          REF: ${{ github.ref }}\n          NUMBER: ${{ github.event.number }}\n          "K\\e[1m": "v\\u009d"\n',
    );
    const tag = await runCli(["rehearse", file, "--ref", "v1.2.0"], { env: { NO_COLOR: "1" } });
    expect(tag.code, tag.stdout + tag.stderr).toBe(0);
    expect(tag.stdout).toContain("REF: refs/tags/v1.2.0");
    expect(
      [...tag.stdout].filter((c) => (c < " " && c !== "\n") || (c >= "\u007f" && c <= "\u009f")),
    ).toEqual([]);
    const payload = await payloadFile({ pull_request: { number: 7 } });
    const pr = await runCli(["rehearse", file, "--event", "pull_request", "--event-payload", payload], {
      env: { NO_COLOR: "1" },
    });
    expect(pr.code, pr.stdout + pr.stderr).toBe(0);
    expect(pr.stdout).toContain("NUMBER: 7");
    expect(pr.stdout).toContain("REF: refs/pull/7/merge");
  });
});
