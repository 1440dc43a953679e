import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readWorkflow, runsFor } from "@cwp/workflow-rehearsal";
import { describe, expect, it } from "vitest";
import { eventFor } from "../src/rehearse/event.js";
import { EVENTS } from "../src/rehearse/event-payloads.js";
import { userMachine } from "./rehearse-machine.js";
import { runCli } from "./run-cli.js";

// Every event GitHub documents that starts a workflow on a Linux runner is one `--event` takes,
// with its payload's parts, its default activity type and the ref GitHub gives the run ("Events
// that trigger workflows",
// https://docs.github.com/en/actions/reference/workflows-and-actions/events-that-trigger-workflows).

const rehearse = async (workflow: string, args: string[]) => {
  const machine = await userMachine(workflow);
  return runCli(["rehearse", machine.workflowFile, ...args], {
    cwd: machine.clone,
    env: { NO_COLOR: "1", HOME: machine.home },
  });
};
/** A workflow on `event` alone; repository_dispatch is written as a mapping, as GitHub's parser asks. */
const echo = (event: string) =>
  `on: ${event === "repository_dispatch" ? "\n  repository_dispatch:" : event}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "\${{ github.event_name }} \${{ github.ref }} \${{ github.event.action }}"\n`;

// Each read by GitHub's parser as a workflow's on:, its payload made, and the workflow started by
// it (its on: filters as GitHub applies them): without a process, so all of them stay cheap.
describe("--event: every event a workflow can be triggered by", () => {
  const where = {
    sha: "a".repeat(40),
    ref: "refs/heads/main",
    repository: "acme/shop",
    workspace: "/nowhere",
  };
  for (const event of EVENTS)
    it(`${event}: GitHub's parser takes it, and it starts the workflow`, async () => {
      const workflow = await readWorkflow(echo(event), "w.yml");
      const made = eventFor(event, where, {});
      expect(made.ref).toMatch(/^refs\/(heads|tags|pull)\//);
      const payload = made.payload as { action?: string };
      const verdict = runsFor(workflow.events, { name: made.name, ref: made.ref, action: payload.action });
      expect(verdict, event).toEqual({ runs: true, notes: [] });
    });
});

describe("events' refs, types and filters as GitHub applies them", () => {
  it("release: the run's ref is the release's tag; types filters its action (published by default)", async () => {
    const result = await rehearse(
      `on:\n  release:\n    types: [published]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - name: Release \${{ github.ref }}\n        uses: acme/cwp/actions/run-template@v1\n        with:\n          template-id: release\n          arguments: tag=\${{ github.event.release.tag_name }}\n          api-token: \${{ secrets.CWP_API_TOKEN }}\n`,
      ["--event", "release", "--ref", "v1.2.0", "--secret", "CWP_API_TOKEN=any"],
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain("▶ Release refs/tags/v1.2.0");
    expect(result.stdout).toContain("arguments: tag=v1.2.0");
    const created = await rehearse(
      `on:\n  release:\n    types: [created]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n`,
      ["--event", "release"],
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("note: on.release.types is created, and this is published");
    expect(created.stdout).toContain("would not start the workflow");
  });

  it("workflow_run: of the workflow its on: names; repository_dispatch's types are its event_type", async () => {
    const run = await rehearse(
      `on:\n  workflow_run:\n    workflows: [Build]\n    types: [completed]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "\${{ github.event.workflow_run.name }}"\n`,
      ["--event", "workflow_run"],
    );
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain("✔ job a would pass");
    const payload = join(await mkdtemp(join(tmpdir(), "cwp-events-")), "p.json");
    await writeFile(payload, JSON.stringify({ action: "deploy" }));
    const dispatch = await rehearse(
      `on:\n  repository_dispatch:\n    types: [deploy]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n`,
      ["--event", "repository_dispatch", "--event-payload", payload],
    );
    expect(dispatch.code, dispatch.stdout).toBe(0);
    expect(dispatch.stdout).toContain("✔ job a would pass");
  });

  it("refuses an event the workflow is not on, naming the events it is on", async () => {
    const result = await rehearse(echo("release"), []);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "does not run on push (its on: release); rehearse it with --event release",
    );
  });
});
