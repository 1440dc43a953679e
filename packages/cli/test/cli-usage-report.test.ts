import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { leakedSecrets, startGitHubStandIn } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { EXIT_CODES } from "../src/exit-codes.js";
import { asRun, cwp, platform, useCliHarness } from "./cli-harness.js";

useCliHarness();

// `cwp usage-report`: its typed --json, the report as a terminal reads it, the files it writes
// and the comment it posts (cli-harness.ts runs it; what every operation prints: cli-output.test.ts).

describe("cwp usage-report: its --json, what a terminal shows, its files and its comment", () => {
  it("comments with the token in GITHUB_TOKEN, never the text of the runner expression github.token", async () => {
    // Commander wraps the help's lines.
    const help = (await cwp(["usage-report", "--help"])).stdout.replace(/\s+/g, " ");
    expect(help).toContain("(default: the GITHUB_TOKEN environment variable)");
    expect(help).not.toContain("${{");
    const github = await startGitHubStandIn("ghs_cli_workflow_token");
    try {
      const args = ["usage-report", "--comment", "issue", "--formats", "json", "--output-dir", tmpdir()];
      const repo = { GITHUB_REPOSITORY: "acme/shop", GITHUB_API_URL: github.url };
      const noToken = await cwp(args, { env: repo });
      expect(noToken.code).toBe(EXIT_CODES.input);
      expect(noToken.stderr).toContain("--github-token: is required to comment (--comment issue)");
      const noRepository = await cwp(args, { env: { GITHUB_TOKEN: "ghs_cli_workflow_token" } });
      expect(noRepository.code).toBe(EXIT_CODES.input);
      expect(noRepository.stderr).toContain("--comment: needs the GitHub repository to post to");
      expect(await platform.requests()).toEqual([]);
      const posted = await cwp(args, { env: { ...repo, GITHUB_TOKEN: "ghs_cli_workflow_token" } });
      expect(posted.code, posted.stderr).toBe(0);
      expect(github.issues).toHaveLength(1);
      expect(github.violations).toEqual([]);
      expect(leakedSecrets(asRun(posted), ["ghs_cli_workflow_token"])).toEqual([]);
    } finally {
      await github.close();
    }
  });

  it("types usage-report's --json: amounts and percentages as numbers, one it does not have as null; over budget, it says where the files went", async () => {
    const dir = join(tmpdir(), `cwp-cli-typed-${process.pid}`);
    const args = ["usage-report", "--period", "last-30-days", "--formats", "json", "--output-dir", dir];
    const plain = await cwp([...args, "--json"]);
    expect(plain.code, plain.stderr).toBe(0);
    const outputs = JSON.parse(plain.stdout) as Record<string, unknown>;
    expect(outputs).toMatchObject({ currency: "USD", "over-budget": false, "budget-used-percent": null });
    for (const name of ["total", "previous-total", "change-percent"])
      expect(outputs[name]).toBeTypeOf("number");
    const report = JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as { total: string };
    expect(outputs.total).toBe(Number(Number(report.total).toFixed(2)));

    const over = await cwp([...args, "--budget", "1", "--fail-on-budget-exceeded", "--json"]);
    expect(over.code).toBe(EXIT_CODES.failed);
    const failed = JSON.parse(over.stdout) as Record<string, unknown> & { error: { message: string } };
    expect(failed).toMatchObject({ "over-budget": true, "report-dir": dir });
    expect(failed["budget-used-percent"]).toBeTypeOf("number");
    expect(failed.error.message).toContain(`over the budget of 1.00 USD`);
    expect(failed.error.message).toContain(`the report is in ${dir}`);
    expect(over.stderr).toContain(`the report is in ${dir}`);
  });

  it("prints usage-report as a terminal reads it: words, aligned tables and a chart in blocks, no Markdown; the files keep the Markdown", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-cli-text-"));
    const result = await cwp([
      "usage-report",
      "--period",
      "last-30-days",
      "--group-by",
      "team",
      "--budget",
      "100000",
      "--output-dir",
      dir,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    for (const markdown of ["<!--", "```", "<details>", "<sub>", "|---", "**", "###"])
      expect(out).not.toContain(markdown);
    expect(out).toMatch(
      /^Total: [\d,]+\.\d\d USD, (up|down) [\d,]+\.\d\d USD \([\d.]+%\) from [\d,]+\.\d\d USD in the period before \(/m,
    );
    expect(out).toMatch(/^Budget: 100,000\.00 USD, [\d.]+% used: under budget\.$/m);
    // A table's columns line up: every row of "By team" is as long as its rule.
    const lines = out.split("\n");
    const at = lines.indexOf("By team (USD)");
    const rule = lines[at + 2] ?? "";
    expect(rule).toMatch(/^─+( +─+)+$/);
    const end = lines.findIndex((l, i) => i > at && l.startsWith("Total "));
    for (const row of lines.slice(at + 1, end + 1)) expect(row.length).toBe(rule.length);
    // One bar a day, the largest day the full width.
    const bars = lines.filter((l) => /^\d{4}-\d\d-\d\d +[\d,.]+ +[█▏▎▍▌▋▊▉]*$/.test(l));
    expect(bars).toHaveLength(30);
    expect(Math.max(...bars.map((l) => (l.match(/█/g) ?? []).length))).toBe(40);
    expect(await readFile(join(dir, "report.md"), "utf8")).toContain("<!-- cwp-usage-report -->");
  });

  it("refuses an --output-dir whose focus/ is a file, naming the flag and the path: exit 2, --json too, nothing sent", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-cli-focus-file-"));
    await writeFile(join(dir, "focus"), "not a folder\n");
    const args = [
      "usage-report",
      "--period",
      "last-month",
      "--formats",
      "focus-parquet",
      "--focus-layout",
      "partitioned",
    ];
    const said = `${join(dir, "focus")} is a file, where the FOCUS dataset's folder goes: move it away, or write the report to another folder (nothing was read or written)`;
    const text = await cwp([...args, "--billing-account-name", "Acme Corp", "--output-dir", dir]);
    expect(text.code).toBe(EXIT_CODES.input);
    expect(text.stderr).toContain(`--output-dir: ${said}`);
    const json = await cwp([...args, "--billing-account-name", "Acme Corp", "--output-dir", dir, "--json"]);
    expect(json.code).toBe(EXIT_CODES.input);
    expect(JSON.parse(json.stdout.trim())).toMatchObject({
      error: { kind: "input", message: expect.stringContaining(said) },
    });
    expect(await platform.requests()).toEqual([]);
  });

  it("writes usage-report's files where --output-dir says, the FOCUS dataset as Parquet too", async () => {
    const dir = join(tmpdir(), `cwp-cli-report-${process.pid}`);
    const result = await cwp([
      "usage-report",
      "--period",
      "last-30-days",
      "--formats",
      "json,focus-parquet",
      "--output-dir",
      dir,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, "report.json"), "utf8"))).toBeTypeOf("object");
    // A whole Parquet file: "PAR1" at both ends, its footer in between (the action's tests read it).
    const parquet = await readFile(join(dir, "focus.parquet"));
    expect(parquet.subarray(0, 4).toString()).toBe("PAR1");
    expect(parquet.subarray(-4).toString()).toBe("PAR1");
    expect(parquet.length).toBeGreaterThan(1000);
  });
});
