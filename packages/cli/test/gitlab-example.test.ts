import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { machineEnv, useTestPlatform } from "@cwp/action-testing";
import { parseWorldFile } from "@cwp/emulator";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

// examples/gitlab-ci.yml as written: each job's script run by bash, as GitLab's runner does, with
// `npx --yes "$CWP_CLI"` standing for this clone's cwp, against the examples' world.

const root = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = fileURLToPath(new URL("../bin/cwp.js", import.meta.url));
const world = parseWorldFile(await readFile(join(root, "examples/world.yaml"), "utf8"));
const platform = useTestPlatform({ world });

interface Job {
  rules?: Array<{ if?: string; when?: string }>;
  script: string[];
  after_script?: string[];
  artifacts?: { when?: string; paths: string[] };
}
const pipeline = parse(await readFile(join(root, "examples/gitlab-ci.yml"), "utf8")) as Record<
  string,
  Job
> & {
  variables: Record<string, string>;
};

/**
 * A job's script, then its after_script, in bash; the exit code of the script. `npx --yes
 * "$CWP_CLI" ...` runs the published package: here, the clone's bin with the same arguments, unless
 * `realNpx` (CWP_CLI is then a tarball's path, which npx installs and runs as a user's would).
 */
async function runJob(job: Job, cwd: string, env: Record<string, string>, realNpx = false) {
  const shim = realNpx
    ? ""
    : `npx() { [ "$1" = --yes ] && shift; [ "$1" = "$CWP_CLI" ] || exit 99; shift; "${process.execPath}" "${BIN}" "$@"; }`;
  const run = async (lines: string[]) => {
    const child = spawn("bash", ["-eo", "pipefail", "-c", [shim, ...lines].join("\n")], {
      cwd,
      env: { ...machineEnv(), HOME: cwd, ...pipeline.variables, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    const [code] = (await once(child, "exit")) as [number];
    return { code, stderr };
  };
  const result = await run(job.script);
  if (job.after_script) await run(job.after_script);
  return result;
}

/**
 * Whether GitLab adds a job to a pipeline with these predefined variables: its first rule whose
 * `if:` holds decides (`when: never` leaves it out), and no rule that holds leaves it out
 * (docs.gitlab.com/ee/ci/jobs/job_rules.html). GitLab's own evaluator is Ruby inside GitLab: this
 * reads only the forms the example uses (`$VAR == "text"`, `$VAR != "text"`, `$VAR` for set and not
 * empty, joined by `&&` or `||`), and refuses any other, so a new form in the example fails here
 * instead of being read wrongly.
 */
function added(job: Job, variables: Record<string, string>): boolean {
  const term = (text: string): boolean => {
    const compared = /^\$(\w+)\s*(==|!=)\s*"([^"]*)"$/.exec(text);
    if (compared)
      return ((variables[compared[1] as string] ?? "") === compared[3]) === (compared[2] === "==");
    const named = /^\$(\w+)$/.exec(text);
    if (named) return (variables[named[1] as string] ?? "") !== "";
    throw new Error(`a rules: if: form this test does not read: ${text}`);
  };
  const holds = (expression: string) =>
    expression.split("||").some((any) => any.split("&&").every((all) => term(all.trim())));
  const rule = (job.rules ?? [{}]).find((r) => r.if === undefined || holds(r.if));
  return rule !== undefined && rule.when !== "never";
}

/** The predefined variables of each event that starts a pipeline, as GitLab sets them. */
const SHA = "0123456789abcdef0123456789abcdef01234567";
const EVENTS: Record<string, Record<string, string>> = {
  "push of branch main": { CI_PIPELINE_SOURCE: "push", CI_COMMIT_BRANCH: "main", CI_COMMIT_REF_NAME: "main" },
  "push of tag v1.2.0": { CI_PIPELINE_SOURCE: "push", CI_COMMIT_TAG: "v1.2.0", CI_COMMIT_REF_NAME: "v1.2.0" },
  schedule: { CI_PIPELINE_SOURCE: "schedule", CI_COMMIT_BRANCH: "main", CI_COMMIT_REF_NAME: "main" },
  "merge request": {
    CI_PIPELINE_SOURCE: "merge_request_event",
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: "feature",
    CI_COMMIT_REF_NAME: "feature",
  },
  "run from the web": { CI_PIPELINE_SOURCE: "web", CI_COMMIT_BRANCH: "main", CI_COMMIT_REF_NAME: "main" },
};

describe("examples/gitlab-ci.yml", () => {
  it.each(Object.entries(EVENTS))("on a %s, each job its rules add succeeds", async (event, variables) => {
    const jobs = Object.entries(pipeline).filter((entry): entry is [string, Job] =>
      Array.isArray((entry[1] as Partial<Job>).script),
    );
    const ran = jobs.filter(([, job]) => added(job, variables)).map(([name]) => name);
    expect(ran, event).toEqual(
      { "push of branch main": ["build"], "push of tag v1.2.0": [], schedule: ["cost-report"] }[event] ?? [],
    );
    for (const name of ran) {
      await platform.reset();
      await platform.control("POST", "outcomes", { kind: "build", succeed: true, durationSeconds: 30 });
      const dir = await mkdtemp(join(tmpdir(), "cwp-gitlab-event-"));
      const env = {
        CWP_API_TOKEN: platform.tokens.org,
        CWP_API_URL: platform.url,
        CI_COMMIT_SHA: SHA,
        ...variables,
      };
      const { code, stderr } = await runJob(pipeline[name] as Job, dir, env);
      expect(code, `${event}: ${name}: ${stderr}`).toBe(0);
    }
  });

  const ci = () => ({
    CWP_API_TOKEN: platform.tokens.org,
    CWP_API_URL: platform.url,
    CI_COMMIT_BRANCH: "main",
    CI_COMMIT_SHA: "0123456789abcdef0123456789abcdef01234567",
  });

  it("pins the CLI to one exact version", () => {
    expect(pipeline.variables.CWP_CLI).toMatch(/^@cwp\/cli@\d+\.\d+\.\d+$/);
  });

  it("build: builds the pushed commit and keeps build.json, also when the build fails", async () => {
    for (const succeed of [true, false]) {
      await platform.reset();
      await platform.control("POST", "outcomes", { kind: "build", succeed, durationSeconds: 30 });
      const dir = await mkdtemp(join(tmpdir(), "cwp-gitlab-build-"));
      const job = pipeline.build as Job;
      const { code, stderr } = await runJob(job, dir, ci());
      expect(code, stderr).toBe(succeed ? 0 : 1);
      const outputs = JSON.parse(await readFile(join(dir, "build.json"), "utf8")) as { status: string };
      expect(outputs.status).toBe(succeed ? "SUCCESS" : "FAILURE");
      // GitLab keeps artifacts of a failed job only with when: always.
      expect(job.artifacts).toEqual({ when: "always", paths: ["build.json"] });
    }
  });

  it("build, before the CLI is on npm: CWP_CLI a tarball packed from the clone, as examples/README says, run by npx itself", {
    timeout: 120_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-gitlab-tarball-"));
    const readme = await readFile(join(root, "examples/README.md"), "utf8");
    const pack = /^(pnpm --filter @cwp\/cli pack --pack-destination) path\/to\/your\/repository/m.exec(
      readme,
    )?.[1];
    expect(pack).toBeDefined();
    const packed = spawnSync("bash", ["-c", `${pack} "${dir}"`], { cwd: root, encoding: "utf8" });
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = (await readdir(dir)).find((f) => /^cwp-cli-.+\.tgz$/.test(f));
    expect(tarball).toBeDefined();
    await platform.control("POST", "outcomes", { kind: "build", succeed: true, durationSeconds: 30 });
    const { code, stderr } = await runJob(
      pipeline.build as Job,
      dir,
      {
        ...ci(),
        CWP_CLI: `./${tarball}`,
        // The clone's Node 24 first, as a runner's image (node:24) has it.
        PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
        npm_config_update_notifier: "false",
        npm_config_audit: "false",
        npm_config_fund: "false",
      },
      true,
    );
    expect(code, stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, "build.json"), "utf8"))).toMatchObject({ status: "SUCCESS" });
  });

  it("cost-report: writes last month's report by project into report/", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-gitlab-report-"));
    const job = pipeline["cost-report"] as Job;
    const { code, stderr } = await runJob(job, dir, ci());
    expect(code, stderr).toBe(0);
    expect((await readdir(join(dir, "report"))).sort()).toEqual(["report.csv", "report.json", "report.md"]);
    const report = JSON.parse(await readFile(join(dir, "report/report.json"), "utf8")) as {
      groupBy: string;
      period: { label?: string };
    };
    expect(report.groupBy).toBe("project");
    expect(job.artifacts?.when).toBe("always");
  });
});
