import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  APP_BOT,
  APP_TOKEN,
  leakedSecrets,
  PERSON,
  PERSONAL_TOKEN,
  READ_ONLY_TOKEN,
  startForwardProxy,
  useGitHubStandIn,
  WORKFLOW_BOT,
} from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { GITHUB_TOKEN, platform, report } from "./report-harness.js";

platform.use();

// usage-report: its pull-request and issue comments (report-harness.ts runs the step).

describe("usage-report: comments", () => {
  // Every request the report made is one GitHub would take.
  const github = useGitHubStandIn(GITHUB_TOKEN);
  const env = () => ({ GITHUB_API_URL: github().url });

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

  it("one comment and one issue whatever GitHub answered their creation: a 502 after it made them, a 502 before", async () => {
    await platform.reset();
    const pr = { name: "pull_request", payload: { number: 31, pull_request: { number: 31 } } };
    const schedule = { name: "schedule", payload: {} };
    const issue = { comment: "issue", "issue-title": "Lost answers", "issue-label": "costs" };
    for (const after of [true, false]) {
      github().comments.splice(0);
      github().issues.splice(0);
      github().fail({ operationId: "issues/create-comment", status: 502, after });
      github().fail({ operationId: "issues/create", status: 502, after });
      const commented = await report({ comment: "pr" }, { env: env(), event: pr });
      expect(commented.result.code, commented.result.stdout).toBe(0);
      const filed = await report(issue, { env: env(), event: schedule });
      expect(filed.result.code, filed.result.stdout).toBe(0);
      expect(github().comments.filter((c) => c.issue === 31)).toHaveLength(1);
      expect(github().issues.filter((i) => i.title === "Lost answers")).toHaveLength(1);
    }
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

  it("says a rate limit on /user as a rate limit, and creates nothing", async () => {
    await platform.reset();
    const before = github().comments.length;
    github().fail({
      operationId: "users/get-authenticated",
      status: 403,
      message: "API rate limit exceeded for user ID 1.",
      headers: {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
      },
    });
    const event = { name: "pull_request", payload: { number: 43, pull_request: { number: 43 } } };
    const { result } = await report({ comment: "pr", "github-token": PERSONAL_TOKEN }, { env: env(), event });
    expect(result.code).toBe(1);
    const error = result.stdout.split("\n").find((l) => l.startsWith("::error::")) ?? "";
    expect(error).toMatch(/rate limit for the github-token until/);
    expect(error).not.toContain("pull-requests: write");
    expect(github().comments.length).toBe(before);
  });

  it("ends a comment list whose Link names itself, and a GitHub that hangs, within the step's timeout", async () => {
    await platform.reset();
    const event = { name: "pull_request", payload: { number: 44, pull_request: { number: 44 } } };
    github().fail({ operationId: "issues/list-comments", loopLink: true, times: 1000 });
    const looped = await report({ comment: "pr" }, { env: env(), event });
    expect(looped.result.code, looped.result.stdout).toBe(0);
    expect(github().calls.filter((c) => c.startsWith("GET") && c.endsWith("/44/comments"))).toHaveLength(2);
    github().heal();

    github().fail({ operationId: "issues/list-comments", delayMs: Number.POSITIVE_INFINITY });
    const began = Date.now();
    const hung = await report({ comment: "pr", timeout: "3s" }, { env: env(), event });
    expect(hung.result.code).toBe(1);
    expect(hung.result.endedAt - began).toBeLessThan(3000 + 4000);
    github().heal();
  }, 30_000);

  it("reaches GitHub through the runner's proxy, as a runner behind one must", async () => {
    await platform.reset();
    // GitHub by a name only the proxy knows: the comment arrives only if it goes through the proxy.
    const port = Number(new URL(github().url).port);
    const proxy = await startForwardProxy({ host: "127.0.0.1", port });
    try {
      const event = { name: "pull_request", payload: { number: 31, pull_request: { number: 31 } } };
      const { result } = await report(
        { comment: "pr" },
        {
          env: {
            GITHUB_API_URL: `http://github().proxied.test:${port}`,
            HTTP_PROXY: proxy.url,
            HTTPS_PROXY: proxy.url,
            NO_PROXY: "127.0.0.1",
          },
          event,
        },
      );
      expect(result.code, result.stdout).toBe(0);
      expect(github().comments.filter((c) => c.issue === 31)).toHaveLength(1);
      expect(proxy.seen.some((c) => c.includes(`github().proxied.test:${port}`))).toBe(true);
    } finally {
      proxy.close();
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

  it("without the permission to write the issue, fails saying which, with the report whole", async () => {
    await platform.reset();
    // A period with whole hours at any instant: the report has a total to write (a month to date
    // has none in its first hour).
    const { result, dir } = await report(
      { comment: "issue", "github-token": READ_ONLY_TOKEN, period: "last-7-days" },
      { env: env(), event: { name: "schedule", payload: {} } },
    );
    expect(result.code).toBe(1);
    const error = result.stdout.split("\n").find((l) => l.startsWith("::error::")) ?? "";
    expect(error).toContain(
      "GitHub refused the report's issue (403: Resource not accessible by integration)",
    );
    expect(error).toContain("`issues: write`");
    expect(error).toContain("The rest of the report is written: its summary, files and outputs.");
    expect(error).not.toContain("Unexpected error");
    // Everything but the issue is there: outputs, summary, files.
    expect(result.outputs.total).toMatch(/^\d+\.\d{2}$/);
    expect(result.summary).toContain("**Total:");
    expect(await readFile(join(dir, "report.json"), "utf8")).toContain('"total"');
    expect(leakedSecrets(result, [READ_ONLY_TOKEN])).toEqual([]);
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
