import { describe, expect, it } from "vitest";
import { userMachine } from "./rehearse-machine.js";
import { runCli } from "./run-cli.js";

// A value only a step not rehearsed sets (here a job output that a run: step sets, without
// --run-shell) stays unknown wherever it is read: the step or job that reads it is "not rehearsed:
// unknown (set by ...)", and none of our steps is started with a made-up value ("Expressions",
// https://docs.github.com/en/actions/reference/workflows-and-actions/expressions: on GitHub the
// value is what the script wrote, which the rehearsal does not know).

const VERSION_JOB = `on: push
jobs:
  version:
    runs-on: ubuntu-latest
    outputs:
      v: \${{ steps.v.outputs.v }}
    steps:
      - id: v
        run: echo "v=1.2.3" >> "$GITHUB_OUTPUT"
`;

/** A trigger-build step of the web service, with more `with:` lines. */
const build = (more: string) => `      - uses: acme/cwp/actions/trigger-build@v1
        with:
          project-id: platform-web
          service-id: web
          ${more}
`;

const rehearse = (machine: { clone: string; home: string; workflowFile: string }, args: string[] = []) =>
  runCli(["rehearse", machine.workflowFile, ...args], {
    cwd: machine.clone,
    env: { NO_COLOR: "1", HOME: machine.home },
  });

describe("a value only a step not rehearsed sets", () => {
  it("inside a longer input of our step: the build is not started, and the step says where the value comes from", async () => {
    const machine = await userMachine(`${VERSION_JOB}  build:
    needs: version
    runs-on: ubuntu-latest
    steps:
${build(`build-arguments: APP_VERSION=\${{ needs.version.outputs.v }}`)}`);
    const result = await rehearse(machine);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).not.toContain("run against");
    expect(result.stdout).not.toContain("APP_VERSION=Object");
    expect(result.stdout).toMatch(
      /\? acme\/cwp\/actions\/trigger-build@v1 \(not rehearsed: it reads a value unknown \(set by the run: step "Run echo "v=1\.2\.3" >> "\$GITHUB_OUTPUT"", which the rehearsal does not run; --run-shell runs it\)\)/,
    );
    expect(result.stdout).toContain("✔ job build would pass as far as rehearsed");
  });

  it("in a reusable workflow's with: or a job's if:: the job is not rehearsed, saying why", async () => {
    const machine = await userMachine(
      `${VERSION_JOB}  call:
    needs: version
    uses: ./.github/workflows/called.yml
    with:
      version: \${{ needs.version.outputs.v }}
  gated:
    needs: version
    if: needs.version.outputs.v != ''
    runs-on: ubuntu-latest
    steps:
      - run: echo gated
`,
      {
        ".github/workflows/called.yml": `on:\n  workflow_call:\n    inputs:\n      version:\n        type: string\njobs:\n  ship:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "\${{ inputs.version }}"\n`,
      },
    );
    const result = await rehearse(machine);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /job call: not rehearsed \(its with: or secrets: reads a value unknown \(set by the run: step/,
    );
    expect(result.stdout).toMatch(
      /job gated: not rehearsed \(its if:, name or env: reads a value unknown \(set by the run: step/,
    );
  });
});

// "Using secrets in GitHub Actions": a secret that is not set reads as an empty string
// (https://docs.github.com/en/actions/how-tos/write-workflows/choose-what-workflows-do/use-secrets).
describe("a secret the workflow reads but the rehearsal was not given", () => {
  it("is '' as on GitHub, said at the step: our step with an empty token fails as the action does", async () => {
    const machine = await userMachine(`on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
${build(`api-token: \${{ secrets.CWP_TOKEN }}`)}`);
    const result = await rehearse(machine, ["--secret", "CWP_API_TOKEN=given-under-another-name"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "note: secrets.CWP_TOKEN is not given (--secret CWP_TOKEN): it is '' here, as on GitHub where it is not set",
    );
    expect(result.stdout).toMatch(/│ error: api-token: is required/);
    // Where the step is printed, the token is said to be empty, and why: never "stands in".
    expect(result.stdout).toContain(
      "      api-token:  (empty: secrets.CWP_TOKEN is not given, --secret CWP_TOKEN gives it)",
    );
    expect(result.stdout).not.toContain("api-token:  (the rehearsal's platform stands in)");
    expect(result.stdout).toContain("✘ job build would fail");
    // And in --json, as a warning of the step.
    const json = await rehearse(machine, ["--json", "--secret", "CWP_API_TOKEN=given-under-another-name"]);
    const [job] = (JSON.parse(json.stdout) as { jobs: { warnings: { warning: string }[] }[] }).jobs;
    expect(job?.warnings.map((w) => w.warning)).toContain(
      "secrets.CWP_TOKEN is not given (--secret CWP_TOKEN): it is '' here, as on GitHub where it is not set",
    );
  });
});

describe("our steps inside a local composite action", () => {
  it("are checked as a workflow's steps are: a misspelt input is a finding with what was meant", async () => {
    const machine = await userMachine(
      `on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: ./.github/actions/build
`,
      {
        ".github/actions/build/action.yml": `runs:
  using: composite
  steps:
${build("dockerfile-pth: Dockerfile").replace(/^ {2}/gm, "")}`,
      },
    );
    const result = await rehearse(machine);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /finding: job build, action \.\/\.github\/actions\/build, step "acme\/cwp\/actions\/trigger-build@v1": Unexpected input\(s\) 'dockerfile-pth', valid inputs are \[.*\]; did you mean 'dockerfile-path' for 'dockerfile-pth'\?/,
    );
  });
});
