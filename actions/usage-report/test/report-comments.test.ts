import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { APP_BOT, APP_TOKEN, leakedSecrets, PERSON, PERSONAL_TOKEN, WORKFLOW_BOT } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { platform, report, useCommentsGitHub } from "./report-harness.js";

platform.use();

// usage-report: its pull-request and issue comments, what it writes and whose it edits (GitHub
// failing it: report-comments-github.test.ts; report-harness.ts runs the step).

describe("usage-report: comments", () => {
  const { github, env } = useCommentsGitHub();

  it("creates one sticky comment on the pull request, then updates it in place", async () => {
    await platform.reset();
    const event = { name: "pull_request", payload: { number: 12, pull_request: { number: 12 } } };
    for (let i = 0; i < 2; i += 1) {
      const { result } = await report({ comment: "pr" }, { env: env(), event });
      expect(result.code, result.stdout).toBe(0);
    }
    expect(github().comments.filter((c) => c.issue === 12)).toHaveLength(1);
    expect(github().calls.filter((c) => c.startsWith("POST"))).toHaveLength(1);
    expect(github().calls.filter((c) => c.startsWith("PATCH"))).toHaveLength(1);
    expect(github().comments[0]?.body).toContain("Cloud Workload Platform costs");
  });

  it("never edits a comment or issue someone else wrote, even one that carries the marker", async () => {
    await platform.reset();
    const mallory = { login: "mallory", type: "User" as const };
    const planted = "<!-- cwp-usage-report -->\nplanted by someone else";
    github().comments.push({ id: 9001, issue: 21, body: planted, user: mallory });
    github().issues.push({ number: 9002, title: "Costs", body: planted, labels: ["costs"], user: mallory });
    const pr = { name: "pull_request", payload: { number: 21, pull_request: { number: 21 } } };
    const schedule = { name: "schedule", payload: {} };
    for (let i = 0; i < 2; i += 1) {
      expect((await report({ comment: "pr" }, { env: env(), event: pr })).result.code).toBe(0);
      const issue = { comment: "issue", "issue-title": "Costs", "issue-label": "costs" };
      expect((await report(issue, { env: env(), event: schedule })).result.code).toBe(0);
    }
    expect(github().comments.find((c) => c.id === 9001)?.body).toBe(planted);
    expect(github().issues.find((i) => i.number === 9002)?.body).toBe(planted);
    // One of our own each, created once and then updated in place.
    expect(
      github().comments.filter((c) => c.issue === 21 && c.user.login === WORKFLOW_BOT.login),
    ).toHaveLength(1);
    expect(
      github().issues.filter((i) => i.title === "Costs" && i.user.login === WORKFLOW_BOT.login),
    ).toHaveLength(1);
  });

  it("updates its own comment in place with a GitHub App's token and a person's, never someone else's", async () => {
    await platform.reset();
    const mallory = { login: "mallory", type: "User" as const };
    const planted = "<!-- cwp-usage-report -->\nplanted by someone else";
    for (const [number, token, author] of [
      [41, APP_TOKEN, APP_BOT],
      [42, PERSONAL_TOKEN, PERSON],
    ] as const) {
      github().comments.push({ id: 9100 + number, issue: number, body: planted, user: mallory });
      const event = { name: "pull_request", payload: { number, pull_request: { number } } };
      for (let i = 0; i < 2; i += 1) {
        const { result } = await report({ comment: "pr", "github-token": token }, { env: env(), event });
        expect(result.code, result.stdout).toBe(0);
        expect(leakedSecrets(result, [token])).toEqual([]);
      }
      const mine = github().comments.filter((c) => c.issue === number && c.user.login === author.login);
      expect(mine, author.login).toHaveLength(1);
      expect(github().comments.find((c) => c.id === 9100 + number)?.body).toBe(planted);
    }
  });

  it("finds or creates one issue by title and label for scheduled runs", async () => {
    await platform.reset();
    for (let i = 0; i < 2; i += 1) {
      const { result } = await report(
        { comment: "issue", "issue-title": "Weekly costs", "issue-label": "costs" },
        { env: env(), event: { name: "schedule", payload: {} } },
      );
      expect(result.code, result.stdout).toBe(0);
    }
    expect(github().issues.filter((i) => i.title === "Weekly costs")).toHaveLength(1);
    expect(github().issues[0]?.labels).toEqual(["costs"]);
  });

  it("trims a report larger than a comment allows, dropping the deepest details first and saying so", async () => {
    await platform.reset();
    const event = { name: "pull_request", payload: { number: 13, pull_request: { number: 13 } } };
    const { result, dir } = await report(
      { comment: "pr", period: "last-30-days", granularity: "hour", "group-by": "resource", top: "25" },
      { env: env(), event },
    );
    expect(result.code, result.stdout).toBe(0);
    const full = await readFile(join(dir, "report.md"), "utf8");
    const comment = github().comments.find((c) => c.issue === 13)?.body ?? "";
    expect(full.length).toBeGreaterThan(65_536);
    expect(comment.length).toBeLessThanOrEqual(65_536);
    expect(comment).toContain("Trimmed to fit GitHub's size limit");
    expect(comment).toContain("**Total:");
    expect(Buffer.byteLength(result.summary)).toBeLessThanOrEqual(1024 * 1024);
  });

  it("needs the repository to comment on, and refuses before any request", async () => {
    await platform.reset();
    const { result } = await report({ comment: "issue" }, { env: { ...env(), GITHUB_REPOSITORY: "" } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Input "comment": needs the GitHub repository to post to');
    expect(await platform.requests()).toEqual([]);
  });

  it("needs a pull request event for comment: pr, and refuses before any request", async () => {
    await platform.reset();
    const { result } = await report({ comment: "pr" }, { env: env(), event: { name: "push", payload: {} } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Input "comment"');
    expect(await platform.requests()).toEqual([]);
  });
});
