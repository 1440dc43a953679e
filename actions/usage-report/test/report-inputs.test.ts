import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { platform, report, WHOLE_HOURS } from "./report-harness.js";

platform.use();

// usage-report: its inputs, and the platform's text as text (report-harness.ts runs the step; a
// platform that goes round, trickles, fails or is slow: report-platform.test.ts).

describe("usage-report: inputs", () => {
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

  it("narrows to a project by the id the other actions take, as by its uid, looked up in the projects list", async () => {
    await platform.reset();
    const project = platform.fixtures.projects.find((p: { id: string }) => p.id === "platform-web");
    const week = { period: "last-7-days", formats: "json", compare: "false" };
    const byUid = await report({ ...week, "project-uid": project.uid });
    const byId = await report({ ...week, "project-id": "platform-web" });
    const uidInId = await report({ ...week, "project-id": project.uid });
    for (const { result } of [byUid, byId, uidInId]) expect(result.code, result.stdout).toBe(0);
    expect(byId.json?.total).toBe(byUid.json?.total);
    expect(uidInId.json?.total).toBe(byUid.json?.total);
    expect(Number(byId.json?.total)).toBeGreaterThan(0);
    // The billing reads carry the uid, as the platform's filters take it.
    const usage = (await platform.requests()).filter((r) => r.path === "/v1/billing/usage");
    expect(usage.length).toBeGreaterThan(0);
    expect(new Set(usage.map((r) => r.query.projectId))).toEqual(new Set([project.uid]));
  });

  it("refuses a project-id no project has, naming the ids there are, with nothing but the projects list read", async () => {
    await platform.reset();
    const { result } = await report({ ...WHOLE_HOURS, "project-id": "storefornt" });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /::error::Input "project-id": no project "storefornt" among the \d+ this token can read \([^)]*platform-web[^)]*\): give a project's id, as the other actions take it, or its 24-character uid/,
    );
    expect(new Set((await platform.requests()).map((r) => r.path))).toEqual(new Set(["/v1/projects"]));
    const both = await report({
      "project-id": "platform-web",
      "project-uid": platform.fixtures.projects[0].uid,
    });
    expect(both.result.stdout).toContain(
      'Input "project-id": give project-id or project-uid, not both (project-id takes a uid too)',
    );
  });

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

  it("refuses an output-dir whose focus/ is a file, naming the input and the path, before any request", async () => {
    await platform.reset();
    const dir = await mkdtemp(join(tmpdir(), "cwp-focus-file-"));
    await writeFile(join(dir, "focus"), "not a folder\n");
    const { result } = await report({
      period: "last-month",
      formats: "focus-parquet",
      "focus-layout": "partitioned",
      "billing-account-name": "Acme Corp",
      "output-dir": dir,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `::error::Input "output-dir": ${join(dir, "focus")} is a file, where the FOCUS dataset's folder goes: move it away, or write the report to another folder (nothing was read or written)`,
    );
    expect(await platform.requests()).toEqual([]);
    expect(await readFile(join(dir, "focus"), "utf8")).toBe("not a folder\n");
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
    // A period with whole hours at any instant (a month to date has none in its first hour).
    const { result, dir } = await report({
      period: "last-7-days",
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
      const { result } = await report({ period: "last-7-days", formats });
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
