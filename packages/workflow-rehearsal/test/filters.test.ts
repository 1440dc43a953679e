import { describe, expect, it } from "vitest";
import { readWorkflow, runsFor } from "../src/index.js";

// Whether a workflow runs for an event, by its on: filters, as "Workflow syntax" documents them
// (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#onpushpull_requestpull_request_targetpathspaths-ignore
// and #onpull_requestpull_request_targetbranchesbranches-ignore, "Filter pattern cheat sheet").

const jobs = "jobs:\n  a:\n    runs-on: x\n    steps:\n      - run: echo\n";
const eventsOf = async (on: string) => (await readWorkflow(`on:\n${on}\n${jobs}`, "w.yml")).events;

describe("on: filters", () => {
  it("push branches and tags with GitHub's patterns, and ! to exclude", async () => {
    const events = await eventsOf(
      "  push:\n    branches: ['main', 'releases/**', '!releases/**-alpha']\n    tags: ['v[0-9]+.*']",
    );
    expect(runsFor(events, { name: "push", ref: "refs/heads/main" }).runs).toBe(true);
    expect(runsFor(events, { name: "push", ref: "refs/heads/releases/10/a" }).runs).toBe(true);
    expect(runsFor(events, { name: "push", ref: "refs/heads/releases/beta/3-alpha" }).runs).toBe(false);
    expect(runsFor(events, { name: "push", ref: "refs/heads/feature/x" }).notes[0]).toMatch(
      /on.push.branches does not match the branch feature\/x/,
    );
    expect(runsFor(events, { name: "push", ref: "refs/tags/v1.2.0" }).runs).toBe(true);
    expect(runsFor(events, { name: "push", ref: "refs/tags/latest" }).runs).toBe(false);
  });

  it("a push to a tag does not run a workflow that filters branches only", async () => {
    const events = await eventsOf("  push:\n    branches: [main]");
    expect(runsFor(events, { name: "push", ref: "refs/tags/v1" }).runs).toBe(false);
  });

  it("pull_request: the base branch, and types (opened, synchronize, reopened by default)", async () => {
    const events = await eventsOf("  pull_request:\n    branches-ignore: ['docs/*']");
    const pr = { name: "pull_request", ref: "refs/pull/1/merge", baseRef: "main" };
    expect(runsFor(events, { ...pr, action: "opened" }).runs).toBe(true);
    expect(runsFor(events, { ...pr, action: "closed" }).runs).toBe(false);
    expect(runsFor(events, { ...pr, action: "opened", baseRef: "docs/x" }).runs).toBe(false);
    const closed = await eventsOf("  pull_request:\n    types: [closed]");
    expect(runsFor(closed, { ...pr, action: "closed" }).runs).toBe(true);
  });

  it("paths where the changed files are known; said so where they are not", async () => {
    const events = await eventsOf("  push:\n    paths: ['src/**', '!src/**/*.md']");
    const push = { name: "push", ref: "refs/heads/main" };
    expect(runsFor(events, { ...push, changedFiles: ["src/a/b.ts"] }).runs).toBe(true);
    expect(runsFor(events, { ...push, changedFiles: ["src/a/b.md", "README.md"] }).runs).toBe(false);
    const unknown = runsFor(events, push);
    expect(unknown.runs).toBe(true);
    expect(unknown.notes[0]).toMatch(/the files it changed are not known: not checked/);
  });

  it("an event the workflow does not name", async () => {
    expect(runsFor(await eventsOf("  push:"), { name: "schedule", ref: "refs/heads/main" }).runs).toBe(false);
  });
});
