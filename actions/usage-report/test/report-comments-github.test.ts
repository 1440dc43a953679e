import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { leakedSecrets, PERSONAL_TOKEN, READ_ONLY_TOKEN, startForwardProxy } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { platform, report, useCommentsGitHub } from "./report-harness.js";

platform.use();

// usage-report's comments with GitHub failing it: answers lost to a 502, a rate limit, a list
// that goes round or hangs, a proxy in the way, a token that may not write (what it writes and
// whose comment it edits: report-comments.test.ts; report-harness.ts runs the step).

describe("usage-report: comments, GitHub failing it", () => {
  const { github, env } = useCommentsGitHub();

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
            GITHUB_API_URL: `http://github.proxied.test:${port}`,
            HTTP_PROXY: proxy.url,
            HTTPS_PROXY: proxy.url,
            NO_PROXY: "127.0.0.1",
          },
          event,
        },
      );
      expect(result.code, result.stdout).toBe(0);
      expect(github().comments.filter((c) => c.issue === 31)).toHaveLength(1);
      expect(proxy.seen.some((c) => c.includes(`github.proxied.test:${port}`))).toBe(true);
    } finally {
      proxy.close();
    }
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
});
