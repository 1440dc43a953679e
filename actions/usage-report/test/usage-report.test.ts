import { readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  APP_BOT,
  APP_TOKEN,
  leakedSecrets,
  PERSON,
  PERSONAL_TOKEN,
  READ_ONLY_TOKEN,
  type RunOptions,
  runBundle,
  type StandIn,
  startForwardProxy,
  startGitHubStandIn,
  useTestPlatform,
  WORKFLOW_BOT,
} from "@cwp/action-testing";
import { PERIODS } from "@cwp/cost-report";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { projectListGoingRound } from "./project-list-going-round.js";

const actionDir = fileURLToPath(new URL("..", import.meta.url));
const platform = useTestPlatform({ speed: 0 });
const DAY = 86_400;
const GITHUB_TOKEN = "ghs_stand_in_token_0123456789";
let dirs = 0;
const outDir = () => {
  dirs += 1;
  return join(tmpdir(), `cwp-usage-report-${process.pid}-${dirs}`);
};

type Json = {
  total: string;
  previousTotal: string | null;
  currency: string;
  scope: Record<string, unknown> | null;
  roundingGap: string;
  period: { start: string; end: string };
  rows: Array<{ key: string; cost: string; kind: string }>;
  allRows: Array<{ key: string; cost: string; kind: string }>;
  requests: { count: number };
};

async function report(inputs: Record<string, string>, options: RunOptions = {}, token = platform.tokens.org) {
  const dir = outDir();
  const result = await runBundle(actionDir, {
    ...options,
    inputs: {
      ...platform.connection(token),
      "output-dir": dir,
      "github-token": GITHUB_TOKEN,
      ...inputs,
    },
  });
  const json =
    result.code === 0 || inputs["fail-on-budget-exceeded"]
      ? (JSON.parse(await readFile(join(dir, "report.json"), "utf8").catch(() => "null")) as Json | null)
      : null;
  expect(leakedSecrets(result, [token, GITHUB_TOKEN])).toEqual([]);
  return { result, json, dir };
}

/** Millionths as exact decimal text, the way report.json writes amounts. */
const decimalText = (micros: bigint) => {
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const fraction = (abs % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${abs / 1_000_000n}${fraction ? `.${fraction}` : ""}`;
};
const micros = (x: number | undefined) => BigInt(Math.round((x ?? 0) * 1e6));
type Price = { cpu?: number; memory?: number; storage?: number; gpu?: number; total: number };
const priceMicros = (p: Price | undefined) =>
  micros(p?.cpu) + micros(p?.memory) + micros(p?.storage) + micros(p?.gpu);

/** The emulator's raw hourly usage over a window, read page by page by the test itself. */
async function hourly(start: number, end: number, token = platform.tokens.org) {
  // biome-ignore lint/suspicious/noExplicitAny: raw entries as the emulator answers them.
  const entries: any[] = [];
  let cursor: string | undefined;
  do {
    const q = new URLSearchParams({
      granularity: "hour",
      startTime: String(start),
      endTime: String(end),
      perPage: "100",
      ...(cursor ? { cursor } : {}),
    });
    const res = await fetch(`${platform.url}/v1/billing/usage?${q}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const page = (await res.json()) as {
      data: { usage: unknown[] };
      pagination: { hasNextPage: boolean; cursor?: string };
    };
    entries.push(...page.data.usage);
    cursor = page.pagination.hasNextPage ? page.pagination.cursor : undefined;
  } while (cursor);
  return entries;
}

const yesterday = () => {
  const d = new Date();
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) / 1000 - DAY;
};
const date = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);

describe("usage-report: the numbers", () => {
  it("matches, number for number, sums computed from the raw hourly data", async () => {
    await platform.reset();
    const end = yesterday() + DAY;
    const start = end - 3 * DAY;
    const { result, json } = await report({
      start: date(start),
      end: date(end - DAY),
      "group-by": "project",
      formats: "json",
      compare: "false",
    });
    expect(result.code, result.stdout).toBe(0);
    const entries = await hourly(start, end);
    expect(entries).toHaveLength(72);
    const byProject = new Map<string, bigint>();
    let all = 0n;
    for (const e of entries) {
      for (const t of e.paas.teams)
        for (const p of t.projects)
          for (const g of p.resources)
            for (const i of g.items) {
              byProject.set(p.id, (byProject.get(p.id) ?? 0n) + priceMicros(i.price));
              all += priceMicros(i.price);
            }
      all += priceMicros(e.byoc.price) + priceMicros(e.egressIp.price) + priceMicros(e.loadBalancer.price);
    }
    const groups = json?.allRows.filter((r) => r.kind === "group") ?? [];
    expect(groups.map((r) => r.key).sort()).toEqual([...byProject.keys()].sort());
    for (const row of groups) expect(row.cost, row.key).toBe(decimalText(byProject.get(row.key) ?? 0n));
    // The headline is the platform's total: the unrounded sum, rounded half up to cents.
    expect(json?.total).toBe(decimalText(((all + 5_000n) / 10_000n) * 10_000n));
    expect(result.outputs.total).toBe(Number(json?.total).toFixed(2));
  });

  it("shows the returned total and a footnote with the gap when rounded rows do not add up to it", async () => {
    await platform.reset();
    let found = false;
    for (let day = yesterday(); day > yesterday() - 40 * DAY && !found; day -= DAY) {
      const { result, json } = await report({
        start: date(day),
        end: date(day),
        "group-by": "resource",
        formats: "json",
        compare: "false",
        top: "100",
      });
      expect(result.code).toBe(0);
      if (json?.roundingGap === "0") continue;
      found = true;
      const shown = json?.rows.reduce((s, r) => s + Math.round(Number(r.cost) * 100), 0) ?? 0;
      expect(Math.round(Number(json?.total) * 100) - shown).toBe(Math.round(Number(json?.roundingGap) * 100));
      expect(result.summary).toMatch(
        /¹ Each row is rounded to cents .* away from the total the platform returned/,
      );
      // The mark is in the table, in a cell the header has (GitHub drops cells beyond it).
      const lines = result.summary.split("\n");
      const at = lines.findIndex((l) => l.startsWith("| **Total"));
      const total = lines[at];
      const header = lines[lines.slice(0, at).findLastIndex((l) => l.startsWith("|---")) - 1];
      const cells = (line = "") => line.split("|").length;
      expect(total).toMatch(/^\| \*\*Total \(as the platform returned it\)\*\* ¹ \|/);
      expect(cells(total)).toBe(cells(header));
    }
    expect(found).toBe(true);
  });

  // 24 runs of the bundle: give them time on a busy CI machine.
  it("reports every period and grouping with the platform's totals for the period and the one before", {
    timeout: 120_000,
  }, async () => {
    await platform.reset();
    for (const period of PERIODS) {
      for (const groupBy of ["team", "project", "resource-type", "resource"]) {
        const { result, json } = await report({
          period,
          "group-by": groupBy,
          formats: "json",
          granularity: period.includes("12") ? "month" : "day",
        });
        expect(result.code, `${period} ${groupBy}: ${result.stdout}`).toBe(0);
        const start = Date.parse(json?.period.start ?? "") / 1000;
        const end = Date.parse(json?.period.end ?? "") / 1000;
        const totalOf = async (s: number, e: number) => {
          const res = await fetch(
            `${platform.url}/v1/billing/usage?granularity=total&startTime=${s}&endTime=${e}`,
            { headers: { authorization: `Bearer ${platform.tokens.org}` } },
          );
          return ((await res.json()) as { data: { usage: Array<{ total: number }> } }).data.usage[0]?.total;
        };
        expect(Number(json?.total), `${period} ${groupBy}`).toBe(await totalOf(start, end));
        // The period before: as many calendar months before whole months, else as long a time.
        const [from, to] = [new Date(start * 1000), new Date(end * 1000)];
        const wholeMonths = [from, to].every((d) => d.getUTCDate() === 1 && d.getTime() % 86_400_000 === 0);
        const months =
          (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth();
        const previousStart = wholeMonths
          ? Date.UTC(from.getUTCFullYear(), from.getUTCMonth() - months) / 1000
          : start - (end - start);
        expect(Number(json?.previousTotal), `${period} ${groupBy} previous`).toBe(
          await totalOf(previousStart, start),
        );
        expect(json?.rows.length).toBeGreaterThan(0);
      }
    }
  });

  it("writes tidy CSV safe for spreadsheets, FOCUS columns that add up, and JSON money as strings", async () => {
    await platform.reset();
    const { result, json, dir } = await report({
      period: "last-7-days",
      compare: "false",
      formats: "markdown,csv,json,focus",
    });
    expect(result.code).toBe(0);
    const csv = (await readFile(join(dir, "report.csv"), "utf8")).trim().split("\n");
    expect(csv[0]).toBe(
      "period_start,period_end,period,group_by,group_key,group_name,kind,cost,currency,vcpu_hours,memory_gib_hours,storage_gib_hours,gpu_hours",
    );
    expect(csv.length - 1).toBe(7 * json!.allRows.length);
    const focus = (await readFile(join(dir, "focus.csv"), "utf8")).trim().split("\n");
    const header = focus[0]?.split(",") ?? [];
    expect(header).toEqual(
      expect.arrayContaining([
        "BilledCost",
        "EffectiveCost",
        "BillingCurrency",
        "ChargePeriodStart",
        "ChargePeriodEnd",
        "ChargeCategory",
        "ConsumedQuantity",
        "ConsumedUnit",
        "ResourceId",
        "ResourceType",
        "ServiceName",
        "SubAccountId",
      ]),
    );
    const billed = header.indexOf("BilledCost");
    const focusMicros = focus.slice(1).reduce((s, line) => s + micros(Number(line.split(",")[billed])), 0n);
    const rowsMicros = json!.allRows.reduce((s, r) => s + micros(Number(r.cost)), 0n);
    expect(focusMicros).toBe(rowsMicros);
    expect(typeof json?.total).toBe("string");
    expect(json?.requests.count).toBeGreaterThan(0);
  });

  it("writes focus.csv only when formats lists it: it grows with the organisation, not the report", async () => {
    await platform.reset();
    const { result, dir } = await report({ period: "last-7-days", compare: "false" });
    expect(result.code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(["report.csv", "report.json", "report.md"]);
  });
});

describe("usage-report: scopes (spec 5.4)", () => {
  it("organisation: customer-level rows, BYOC clusters from the invoices, the credit balance", async () => {
    await platform.reset();
    const { result, json } = await report({ period: "last-month", formats: "json" });
    expect(result.code).toBe(0);
    expect(json?.rows.map((r) => r.key)).toEqual(
      expect.arrayContaining(["customer:byoc", "customer:egressIp", "customer:loadBalancer"]),
    );
    expect(result.summary).toContain("### BYOC clusters");
    expect(result.summary).toContain("### Credit balance");
    const requests = await platform.requests();
    expect(json?.requests.count).toBe(requests.length);
  });

  it("a team billed through the organisation: scope, no customer charges, no teamId sent, no credit balance asked", async () => {
    await platform.reset();
    const { result, json } = await report({ formats: "json" }, {}, platform.tokens.teamViaOrg);
    expect(result.code, result.stdout).toBe(0);
    expect(json?.scope).not.toBeNull();
    expect(json?.rows.every((r) => r.kind === "group")).toBe(true);
    expect(result.summary).toContain("Team scope");
    const requests = await platform.requests();
    expect(requests.every((r) => !("teamId" in r.query))).toBe(true);
    expect(requests.some((r) => r.path.endsWith("/credit-balance"))).toBe(false);
    expect(requests.every((r) => r.status === 200)).toBe(true);
  });

  it("a team with its own billing: its currency, and money owed shown as owed", async () => {
    await platform.reset();
    const { result, json } = await report({ formats: "json" }, {}, platform.tokens.teamOwnBilling);
    expect(result.code).toBe(0);
    expect(json?.currency).toBe("EUR");
    const credit = result.summary.slice(result.summary.indexOf("### Credit balance")).split("\n\n")[1] ?? "";
    expect(credit).toContain("| Credit | Amount (EUR) |");
    expect(credit).toMatch(/\| \*\*Owed\*\* \(unpaid invoices\) \| \*\*[\d,]+\.\d\d\*\* \|/);
    expect(credit).not.toMatch(/-[\d,]+\.\d\d/);
  });

  it("explains that team-uid is for organisation tokens when a team token sends it", async () => {
    await platform.reset();
    const team = platform.fixtures.teams.find((t: { id: string }) => t.id === "platform");
    const { result } = await report({ "team-uid": team.uid }, {}, platform.tokens.teamViaOrg);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/team-uid is for organisation tokens/);
  });
});

describe("usage-report: budget", () => {
  it("warns past the warning share and fails over budget when asked", async () => {
    await platform.reset();
    const first = await report({ formats: "json", compare: "false" });
    const total = Number(first.json?.total);
    const warned = await report({ budget: (total * 1.1).toFixed(2), formats: "json", compare: "false" });
    expect(warned.result.code).toBe(0);
    expect(warned.result.stdout).toMatch(/::warning::Spent 9\d\.\d%25 of the budget/);
    expect(warned.result.outputs["over-budget"]).toBe("false");
    const over = await report({
      budget: (total / 2).toFixed(2),
      "fail-on-budget-exceeded": "true",
      formats: "json",
      compare: "false",
    });
    expect(over.result.code).toBe(1);
    expect(over.result.outputs).toMatchObject({ "over-budget": "true", "budget-used-percent": "200.0" });
    expect(over.result.summary).toContain("🛑 over budget");
  });
});

describe("usage-report: comments", () => {
  let github: StandIn;
  beforeAll(async () => {
    github = await startGitHubStandIn(GITHUB_TOKEN);
  });
  afterAll(() => github.close());
  // Every request the report made is one GitHub would take.
  afterEach(() => {
    github.heal();
    expect(github.violations.splice(0)).toEqual([]);
  });
  const env = () => ({ GITHUB_API_URL: github.url });

  it("creates one sticky comment on the pull request, then updates it in place", async () => {
    await platform.reset();
    const event = { name: "pull_request", payload: { number: 12, pull_request: { number: 12 } } };
    for (let i = 0; i < 2; i += 1) {
      const { result } = await report({ comment: "pr" }, { env: env(), event });
      expect(result.code, result.stdout).toBe(0);
    }
    expect(github.comments.filter((c) => c.issue === 12)).toHaveLength(1);
    expect(github.calls.filter((c) => c.startsWith("POST"))).toHaveLength(1);
    expect(github.calls.filter((c) => c.startsWith("PATCH"))).toHaveLength(1);
    expect(github.comments[0]?.body).toContain("Cloud Workload Platform costs");
  });

  it("one comment and one issue whatever GitHub answered their creation: a 502 after it made them, a 502 before", async () => {
    await platform.reset();
    const pr = { name: "pull_request", payload: { number: 31, pull_request: { number: 31 } } };
    const schedule = { name: "schedule", payload: {} };
    const issue = { comment: "issue", "issue-title": "Lost answers", "issue-label": "costs" };
    for (const after of [true, false]) {
      github.comments.splice(0);
      github.issues.splice(0);
      github.fail({ operationId: "issues/create-comment", status: 502, after });
      github.fail({ operationId: "issues/create", status: 502, after });
      const commented = await report({ comment: "pr" }, { env: env(), event: pr });
      expect(commented.result.code, commented.result.stdout).toBe(0);
      const filed = await report(issue, { env: env(), event: schedule });
      expect(filed.result.code, filed.result.stdout).toBe(0);
      expect(github.comments.filter((c) => c.issue === 31)).toHaveLength(1);
      expect(github.issues.filter((i) => i.title === "Lost answers")).toHaveLength(1);
    }
  });

  it("never edits a comment or issue someone else wrote, even one that carries the marker", async () => {
    await platform.reset();
    const mallory = { login: "mallory", type: "User" as const };
    const planted = "<!-- cwp-usage-report -->\nplanted by someone else";
    github.comments.push({ id: 9001, issue: 21, body: planted, user: mallory });
    github.issues.push({ number: 9002, title: "Costs", body: planted, labels: ["costs"], user: mallory });
    const pr = { name: "pull_request", payload: { number: 21, pull_request: { number: 21 } } };
    const schedule = { name: "schedule", payload: {} };
    for (let i = 0; i < 2; i += 1) {
      expect((await report({ comment: "pr" }, { env: env(), event: pr })).result.code).toBe(0);
      const issue = { comment: "issue", "issue-title": "Costs", "issue-label": "costs" };
      expect((await report(issue, { env: env(), event: schedule })).result.code).toBe(0);
    }
    expect(github.comments.find((c) => c.id === 9001)?.body).toBe(planted);
    expect(github.issues.find((i) => i.number === 9002)?.body).toBe(planted);
    // One of our own each, created once and then updated in place.
    expect(github.comments.filter((c) => c.issue === 21 && c.user.login === WORKFLOW_BOT.login)).toHaveLength(
      1,
    );
    expect(
      github.issues.filter((i) => i.title === "Costs" && i.user.login === WORKFLOW_BOT.login),
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
      github.comments.push({ id: 9100 + number, issue: number, body: planted, user: mallory });
      const event = { name: "pull_request", payload: { number, pull_request: { number } } };
      for (let i = 0; i < 2; i += 1) {
        const { result } = await report({ comment: "pr", "github-token": token }, { env: env(), event });
        expect(result.code, result.stdout).toBe(0);
        expect(leakedSecrets(result, [token])).toEqual([]);
      }
      const mine = github.comments.filter((c) => c.issue === number && c.user.login === author.login);
      expect(mine, author.login).toHaveLength(1);
      expect(github.comments.find((c) => c.id === 9100 + number)?.body).toBe(planted);
    }
  });

  it("says a rate limit on /user as a rate limit, and creates nothing", async () => {
    await platform.reset();
    const before = github.comments.length;
    github.fail({
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
    expect(github.comments.length).toBe(before);
  });

  it("ends a comment list whose Link names itself, and a GitHub that hangs, within the step's timeout", async () => {
    await platform.reset();
    const event = { name: "pull_request", payload: { number: 44, pull_request: { number: 44 } } };
    github.fail({ operationId: "issues/list-comments", loopLink: true, times: 1000 });
    const looped = await report({ comment: "pr" }, { env: env(), event });
    expect(looped.result.code, looped.result.stdout).toBe(0);
    expect(github.calls.filter((c) => c.startsWith("GET") && c.endsWith("/44/comments"))).toHaveLength(2);
    github.heal();

    github.fail({ operationId: "issues/list-comments", delayMs: Number.POSITIVE_INFINITY });
    const began = Date.now();
    const hung = await report({ comment: "pr", timeout: "3s" }, { env: env(), event });
    expect(hung.result.code).toBe(1);
    expect(hung.result.endedAt - began).toBeLessThan(3000 + 4000);
    github.heal();
  }, 30_000);

  it("reaches GitHub through the runner's proxy, as a runner behind one must", async () => {
    await platform.reset();
    // GitHub by a name only the proxy knows: the comment arrives only if it goes through the proxy.
    const port = Number(new URL(github.url).port);
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
      expect(github.comments.filter((c) => c.issue === 31)).toHaveLength(1);
      expect(proxy.seen.some((c) => c.includes(`github.proxied.test:${port}`))).toBe(true);
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
    expect(github.issues.filter((i) => i.title === "Weekly costs")).toHaveLength(1);
    expect(github.issues[0]?.labels).toEqual(["costs"]);
  });

  it("without the permission to write the issue, fails saying which, with the report whole", async () => {
    await platform.reset();
    const { result, dir } = await report(
      { comment: "issue", "github-token": READ_ONLY_TOKEN },
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
    const comment = github.comments.find((c) => c.issue === 13)?.body ?? "";
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

describe("usage-report: inputs and the platform", () => {
  for (const [inputs, input] of [
    [{ period: "yesterday" }, "period"],
    [{ granularity: "week" }, "granularity"],
    [{ "team-uid": "abc" }, "team-uid"],
    [{ "project-uid": "XYZ" }, "project-uid"],
    [{ "resource-type": "robot" }, "resource-type"],
    [{ "group-by": "colour" }, "group-by"],
    [{ top: "0" }, "top"],
    [{ budget: "-5" }, "budget"],
    [{ formats: "pdf" }, "formats"],
    [{ comment: "slack" }, "comment"],
    [{ "output-dir": "/dev/null/reports" }, "output-dir"],
    [{ start: "2026-01-01" }, "end"],
    [{ start: "2026-02-30", end: "2026-03-01" }, "start"],
    [{ start: "2026-03-02", end: "2026-03-01" }, "end"],
    [{ start: "2099-01-01", end: "2099-01-31" }, "start"],
  ] as const) {
    it(`refuses a malformed ${input} before any request`, async () => {
      await platform.reset();
      const { result } = await report(inputs);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(`Input "${input}"`);
      expect(await platform.requests()).toEqual([]);
    });
  }

  it("refuses an output-dir the system will not make, instead of hanging there", async () => {
    await platform.reset();
    // /proc answers "no such parent" for ever: a recursive mkdir that retries never ends.
    const { result } = await report({ "output-dir": "/proc/cwp-reports/2026" }, { killAfterMs: 10_000 });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '::error::Input "output-dir": cannot be written (ENOENT): /proc/cwp-reports/2026',
    );
    expect(await platform.requests()).toEqual([]);
  });

  it("stops on a project list that goes round, naming it, without spending the hour's budget or writing a report from part of it", async () => {
    await platform.reset();
    await projectListGoingRound(platform);
    const { result, dir } = await report({ formats: "json", "group-by": "project" });
    expect(result.code, result.stdout).toBe(1);
    const listed = (await platform.requests()).filter((r) => r.path === "/v1/projects");
    expect(listed.length).toBeLessThanOrEqual(6);
    // The files a run writes replace an earlier run's: only a complete read writes them.
    expect(result.stdout).toMatch(
      /::error::GET \/v1\/\S*projects (answered the same page twice|handed out a cursor).*could not be read whole, so nothing was written/,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("uses the team twin with team-id", async () => {
    await platform.reset();
    const { result } = await report(
      { "team-id": "platform", formats: "json" },
      {},
      platform.tokens.teamViaOrg,
    );
    expect(result.code, result.stdout).toBe(0);
    expect(
      (await platform.requests()).every(
        (r) => r.path.startsWith("/v1/teams/platform/") || r.path === "/v1/teams",
      ),
    ).toBe(true);
  });

  it("ends at its timeout when the usage list trickles in, instead of minutes later", async () => {
    await platform.reset();
    await platform.control("POST", "faults", {
      method: "GET",
      path: "/v1/billing/usage",
      status: 200,
      body: { data: { usage: [] }, pad: "x".repeat(2000) },
      trickleMs: 20,
      times: 100,
    });
    const begun = Date.now();
    const { result } = await report({ formats: "json", timeout: "5s" });
    expect(result.code).toBe(1);
    expect(result.endedAt - begun).toBeLessThan(9000);
    expect(result.stdout).toMatch(/::error::GET \/v1\/billing\/usage/);
  });

  // Slow answers that a step which waits for them cannot hide on any machine: ended before one of
  // them is given up, not waited for; ended before two is read side by side. The rest of each
  // bound is a loaded machine's start and end of a step.
  const SLOW_MS = 6_000;

  it("stops every other read as soon as one fails, and leaves no half files", async () => {
    await platform.reset();
    // The totals and the trend take seconds to answer; the credit balance, read beside the
    // trend, is refused at once.
    await platform.control("POST", "faults", [
      { method: "GET", path: "/v1/billing/credit-balance", status: 403, times: 1 },
      { method: "GET", path: "/v1/billing/usage", delayMs: SLOW_MS, times: 3 },
    ]);
    const begun = Date.now();
    const { result, dir } = await report({ timeout: "60s" });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/::error::GET \/v1\/billing\/credit-balance failed with 403/);
    // The totals first (one slow answer), then the trend's request given up, not waited for (a
    // second one).
    expect(result.endedAt - begun).toBeLessThan(2 * SLOW_MS);
    expect(await readdir(dir)).toEqual([]);
  });

  it("stops the usage reads as soon as the names are refused", async () => {
    await platform.reset();
    // The totals and the trend take seconds to answer; the project names, read beside them, are
    // refused at once.
    await platform.control("POST", "faults", [
      { method: "GET", path: "/v1/projects", status: 403, times: 1 },
      { method: "GET", path: "/v1/billing/usage", delayMs: SLOW_MS, times: 3 },
    ]);
    const begun = Date.now();
    const { result, dir } = await report({ timeout: "60s" });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/::error::GET \/v1\/projects failed with 403/);
    // The usage reads were given up, not waited for.
    expect(result.endedAt - begun).toBeLessThan(SLOW_MS);
    expect(await readdir(dir)).toEqual([]);
  });

  it("reads the trend beside the totals: a slow usage list costs its wait once", async () => {
    await platform.reset();
    // Both periods' totals and the trend: each answers after SLOW_MS.
    await platform.control("POST", "faults", [
      { method: "GET", path: "/v1/billing/usage", delayMs: SLOW_MS, times: 3 },
    ]);
    const begun = Date.now();
    const { result } = await report({ formats: "json" });
    expect(result.code, result.stdout).toBe(0);
    // Read one after the other, they would take twice as long at least.
    expect(result.endedAt - begun).toBeLessThan(2 * SLOW_MS);
  });

  it("reads through 429s and 5xx", async () => {
    await platform.reset();
    await platform.control("POST", "faults", [
      { method: "GET", path: "/v1/billing/usage", status: 503, times: 1 },
      {
        method: "GET",
        path: "/v1/billing/usage",
        status: 429,
        headers: { "x-ratelimit-reset": "1" },
        times: 1,
      },
    ]);
    const { result } = await report({ formats: "json" });
    expect(result.code, result.stdout).toBe(0);
  });
});

describe("usage-report: the platform's text is shown as text", () => {
  const HOSTILE_NAME = "@org/admins <img src=x onerror=alert(1)> see https://evil.example #12 \u202egnp.exe";
  const HOSTILE_CURRENCY = "<b>USD</b>";

  it("names and currencies come out with no HTML, link, mention, issue reference or reordering", async () => {
    await platform.reset();
    const auth = { authorization: `Bearer ${platform.tokens.org}` };
    const projects = (await (
      await fetch(`${platform.url}/v1/projects?per_page=100`, { headers: auth })
    ).json()) as {
      data: { projects: Array<{ name?: string }> };
    };
    for (const project of projects.data.projects) project.name = HOSTILE_NAME;
    const credit = (await (
      await fetch(`${platform.url}/v1/billing/credit-balance`, { headers: auth })
    ).json()) as {
      data: { currency: string };
    };
    credit.data.currency = HOSTILE_CURRENCY;
    await platform.control("POST", "faults", [
      { method: "GET", path: "/v1/projects", status: 200, body: projects },
      { method: "GET", path: "/v1/billing/credit-balance", status: 200, body: credit },
    ]);
    const { result } = await report({ period: "last-month", "group-by": "project", formats: "markdown" });
    expect(result.code, result.stdout).toBe(0);
    const shown = result.summary;
    expect(shown).toContain("### Credit balance");
    for (const live of ["<img", "<b>", "@org/", "https://", "#12", "\u202e"])
      expect(shown).not.toContain(live);
    // Still there to read, each made inert.
    expect(shown).toContain("@\u2060org/admins &lt;img src=x onerror=alert(1)&gt;");
    expect(shown).toContain("https:\u2060//evil.example");
    expect(shown).toContain("&lt;b&gt;USD&lt;/b&gt;");
  });
});

describe("usage-report: hostile platform data in the exports", () => {
  /** The emulator's usage page, changed by `edit`, answered to every usage request. */
  async function hostileUsage(edit: (page: UsagePage) => void) {
    const auth = { authorization: `Bearer ${platform.tokens.org}` };
    const page = (await (
      await fetch(`${platform.url}/v1/billing/usage?granularity=day&perPage=3`, { headers: auth })
    ).json()) as UsagePage;
    edit(page);
    page.pagination = { hasNextPage: false };
    await platform.control("POST", "faults", {
      method: "GET",
      path: "/v1/billing/usage",
      status: 200,
      body: page,
      times: 1000,
    });
  }

  it("a resource type named like an object member is a type like any other, and no control character is written raw", async () => {
    await platform.reset();
    await hostileUsage((page) => {
      // Resources that cost something, so that each has FOCUS rows.
      const resources = page.data.usage
        .flatMap((e) => e.paas.teams.flatMap((t) => t.projects.flatMap((p) => p.resources)))
        .filter((r) => r.price.total > 0);
      ["constructor", "__proto__", "toString"].forEach((type, i) => {
        const resource = resources[i];
        if (!resource) return;
        resource.resourceType = type;
        const item = resource.items[0];
        if (item) item.id = `id\u0000with\u0007controls\nand a break`;
      });
    });
    const { result, dir } = await report({
      period: "month-to-date",
      "group-by": "resource-type",
      formats: "csv,focus,focus-parquet",
    });
    expect(result.code, result.stdout).toBe(0);
    const focus = await readFile(join(dir, "focus.csv"), "utf8");
    expect(focus).not.toContain("function Object");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be written.
    expect(focus.replace(/\n/g, "")).not.toMatch(/[\x00-\x1f\x7f]/);
    for (const type of ["constructor", "__proto__", "toString"])
      expect(focus).toMatch(new RegExp(`PaaS ${type}: [^,]*,Other,`));
    expect((await readFile(join(dir, "focus.parquet"))).subarray(0, 4).toString()).toBe("PAR1");
  });

  it("a usage window that is not a time is named, for every format, never an unexpected error", async () => {
    for (const formats of ["markdown", "csv,focus"]) {
      await platform.reset();
      await hostileUsage((page) => {
        const entry = page.data.usage[0];
        if (entry) entry.window = { start: "the day after tomorrow", end: entry.window.end };
      });
      const { result } = await report({ period: "month-to-date", formats });
      expect(result.code, formats).toBe(1);
      const error = result.stdout.split("\n").find((l) => l.startsWith("::error::")) ?? "";
      expect(error, formats).toContain(
        'usage entry 1 has a window.start that is not a time ("the day after tomorrow")',
      );
      expect(error, formats).not.toContain("Unexpected error");
    }
  });
});

interface UsagePage {
  data: {
    usage: Array<{
      window: { start: string; end: string };
      paas: {
        teams: Array<{
          projects: Array<{
            resources: Array<{
              resourceType: string;
              price: { total: number };
              items: Array<{ id: string }>;
            }>;
          }>;
        }>;
      };
    }>;
  };
  pagination?: unknown;
}
