import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type StandIn, startGitHubStandIn, startTestPlatform, type TestPlatform } from "@cwp/action-testing";
import { parseWorldFile } from "@cwp/emulator";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { type Rehearsal, rehearse } from "./rehearse-bundles.js";

// What the example workflows' tests share (examples.test.ts, examples-builds-and-reports.test.ts):
// the example workflows as written, job by job, against an emulator seeded from the world file
// that matches them (examples/world.yaml): our steps run their committed bundles, GitHub is the
// stand-in that checks every request against GitHub's description. Only the API URL changes.

const root = fileURLToPath(new URL("../../", import.meta.url));
export const workflow = (name: string) => `${root}examples/workflows/${name}`;
const GITHUB_TOKEN = "ghs_examples_workflow_token";
/** A commit the stand-in knows (branch feature/checkout's head). */
export const HEAD_SHA = "89abcdef0123456789abcdef0123456789abcdef";

export let platform: TestPlatform;
export let github: StandIn;

/**
 * The file's emulator on examples/world.yaml and GitHub's stand-in, reset before each test; after
 * each, no request a step made that GitHub would refuse. Call once, at the file's top (a worker
 * keeps this module for the files it runs after).
 */
export function useExamples() {
  beforeAll(async () => {
    const world = parseWorldFile(await readFile(`${root}examples/world.yaml`, "utf8"));
    // Virtual time runs 300 times faster, from six hours back: the platform's clock stays behind the
    // runner's for the whole file, as a real platform's is about the same (a step refuses times to come).
    platform = await startTestPlatform({ speed: 300, world, startAt: Date.now() - 6 * 3_600_000 });
    github = await startGitHubStandIn(GITHUB_TOKEN);
  });
  afterAll(async () => {
    await platform.close();
    await github.close();
  });
  beforeEach(async () => {
    await platform.reset();
    github.deployments.splice(0);
    github.issues.splice(0);
    github.comments.splice(0);
  });
  afterEach(() => {
    // Every request a step made is one GitHub would take.
    expect(github.violations.splice(0)).toEqual([]);
  });
}

export const run = (
  r: Omit<Rehearsal, "actionsDir" | "replace" | "env" | "token"> & { scriptEnv?: Record<string, string> },
) =>
  rehearse({
    ...r,
    secrets: { CWP_API_TOKEN: platform.tokens.org, ...r.secrets },
    actionsDir: `${root}actions`,
    replace: { "https://api.example.com": platform.url },
    env: { GITHUB_API_URL: github.url, ...r.scriptEnv },
    token: GITHUB_TOKEN,
  });
export const failures = (job: Awaited<ReturnType<typeof rehearse>>) =>
  job.steps
    .filter((s) => s.result && s.result.code !== 0)
    .map(
      (s) =>
        `${s.name}: ${s.result?.stdout
          .split("\n")
          .filter((l) => l.startsWith("::error"))
          .join(" ")}`,
    );
/** A template's runs, each as its own read has it: the list carries summaries, without arguments. */
export async function templateRuns(template: string) {
  const read = async <T>(path: string) =>
    (
      (await (
        await fetch(`${platform.url}${path}`, { headers: { authorization: `Bearer ${platform.tokens.org}` } })
      ).json()) as { data: T }
    ).data;
  const { templateRuns: listed } = await read<{ templateRuns: Array<{ id: string }> }>(
    `/v1/templates/${template}/runs`,
  );
  return Promise.all(
    listed.map((r) =>
      read<{ arguments: Record<string, unknown>; status: string }>(`/v1/templates/${template}/runs/${r.id}`),
    ),
  );
}

/** A push of the head commit to `ref` (a branch or a tag). */
export const push = (ref: string) => ({
  name: "push",
  sha: HEAD_SHA,
  ref,
  payload: { ref, after: HEAD_SHA },
});
export const SCHEDULE = { name: "schedule", sha: HEAD_SHA, ref: "refs/heads/main", payload: {} };

export function pullRequest(number: number, action: string, fork = false) {
  return {
    name: "pull_request",
    sha: HEAD_SHA,
    ref: `refs/pull/${number}/merge`,
    payload: {
      action,
      number,
      pull_request: {
        number,
        head: {
          sha: HEAD_SHA,
          ref: "feature/checkout",
          repo: { full_name: fork ? "someone/shop" : "acme/shop" },
        },
        base: { ref: "main", repo: { full_name: "acme/shop" } },
      },
      repository: { full_name: "acme/shop" },
    },
  };
}
