import { readFile, stat } from "node:fs/promises";
import { leakedSecrets, runBundle } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { actionDir, base, concludedBuildWithLogs, file, platform } from "./fetch-logs-harness.js";
import { SLOW_PATTERN, slowLines } from "./slow-lines.js";

platform.use();

// fail-on-regex: a match fails the step after the file is written, the matching line quoted inert
// and masked, and a pattern runs in linear time within the step's timeout (fetch-logs.test.ts has
// the reads themselves).

describe("fetch-logs: fail-on-regex", () => {
  it("fails the step when fail-on-regex matches, after writing the file", async () => {
    await platform.reset();
    const out = file("gate.log");
    const result = await runBundle(actionDir, {
      inputs: {
        ...base(),
        "service-id": "web",
        duration: "6h",
        "fail-on-regex": "^ERROR upstream timeout",
        "output-file": out,
        print: "false",
      },
    });
    expect(result.code).toBe(1);
    expect(result.outputs.matched).toBe("true");
    // With print: false the lines are only in the file: the failure quotes the line that matched,
    // the first one in the file, so that the step's annotation says what to act on.
    const written = (await readFile(out, "utf8")).split("\n");
    const line = written.find((l) => / ERROR upstream timeout after \d+ms on GET /.test(l)) ?? "";
    const [ts, container] = line.split(" ");
    const text = line.slice(`${ts} ${container} `.length);
    expect(text).toMatch(/^ERROR upstream timeout/);
    const [error] = result.stdout.split("\n").filter((l) => l.startsWith("::error::"));
    expect(error).toBe(
      `::error::A line of the logs of service web in project platform-web matches fail-on-regex (first at ${ts}, container ${container}): ${text}%0AThe lines are in ${out}.`,
    );
    expect(result.summary).toContain(`| Matched | ${ts} ${text} |`);
  });

  it("quotes a matching line inert and masked: its commands do nothing, a secret in it is ***", async () => {
    await platform.reset();
    const token = platform.tokens.org;
    const buildId = await concludedBuildWithLogs([
      "starting",
      `FATAL ::add-mask::x ##[error]forged token=${token} <b>@octocat</b>`,
      "after",
    ]);
    const out = file("hostile-match.log");
    const result = await runBundle(actionDir, {
      inputs: {
        ...base(),
        "service-id": "web",
        "build-id": buildId,
        "fail-on-regex": "^FATAL",
        "output-file": out,
        print: "false",
      },
    });
    expect(result.code).toBe(1);
    const [error, ...more] = result.stdout.split("\n").filter((l) => l.startsWith("::error::"));
    expect(more).toEqual([]);
    // In the annotation's data: the runner reads no command there; the old ##[ form is broken up.
    expect(error).toContain(
      "): FATAL ::add-mask::x # #[error]forged token=*** <b>@octocat</b>%0AThe lines are in",
    );
    expect(result.stdout).not.toMatch(/^::add-mask::x/m);
    expect(leakedSecrets(result, [token])).toEqual([]);
    // In the summary, a cell of escaped text: no HTML, no mention.
    const matched = result.summary.split("\n").find((l) => l.startsWith("| Matched |")) ?? "";
    expect(matched).not.toContain("<b>");
    expect(matched).not.toMatch(/@octocat/);
    expect(matched).toContain("token=&#42;&#42;&#42;"); // ***, escaped
  });

  it("runs fail-on-regex in linear time: a pattern that backtracks for ever in JavaScript ends at once", async () => {
    await platform.reset();
    // `(a+)+$` against forty a's and a '!' takes JavaScript's engine longer than any step may run.
    const lines = ["a".repeat(40).concat("!"), "b".repeat(30), "done."];
    const buildId = await concludedBuildWithLogs(lines);
    const gated = (pattern: string) =>
      runBundle(actionDir, {
        inputs: {
          ...base(),
          "service-id": "web",
          "build-id": buildId,
          "fail-on-regex": pattern,
          "output-file": file("linear.log"),
          print: "false",
        },
      });
    const startedAt = Date.now();
    const passed = await gated("(a+)+$");
    expect(passed.code, passed.stdout).toBe(0);
    expect(passed.outputs).toMatchObject({ matched: "false", lines: String(lines.length) });
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    const failed = await gated("^(a|aa)+!$");
    expect(failed.code, failed.stdout).toBe(1);
    expect(failed.outputs.matched).toBe("true");
  });

  it("refuses a fail-on-regex that needs backtracking (a backreference, lookaround), naming it, before any request", async () => {
    await platform.reset();
    for (const pattern of ["(a)\\1", "error(?!s)"]) {
      const before = (await platform.requests()).length;
      const result = await runBundle(actionDir, {
        inputs: { ...base(), "service-id": "web", "fail-on-regex": pattern, print: "false" },
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /::error::.*fail-on-regex.*must be a regular expression in RE2 syntax, which matches in linear time/,
      );
      expect((await platform.requests()).length).toBe(before);
    }
  });

  it("refuses a fail-on-regex whose program is past the bound, naming it, before any request", async () => {
    await platform.reset();
    const result = await runBundle(actionDir, {
      inputs: { ...base(), "service-id": "web", "fail-on-regex": "(\\p{L}\\s?){1,300}\\d", print: "false" },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /::error::.*fail-on-regex.*compiles to 1802 instructions, more than the 1000/,
    );
    expect(await platform.requests()).toEqual([]);
  });

  it("a slow pattern on long non-ASCII lines ends at its timeout, and on a cancel, as a whole step", {
    timeout: 60_000,
  }, async () => {
    await platform.reset();
    const lines = slowLines();
    const buildId = await concludedBuildWithLogs(lines);
    const inputs = {
      ...base(),
      "service-id": "web",
      "build-id": buildId,
      "fail-on-regex": SLOW_PATTERN,
      "output-file": file("slow.log"),
      print: "false",
    };
    const began = Date.now();
    const timedOut = await runBundle(actionDir, {
      inputs: { ...inputs, timeout: "1s", "output-file": file("timed-out.log") },
    });
    expect(timedOut.code, timedOut.stdout.slice(0, 600)).toBe(1);
    expect(timedOut.stdout).toMatch(/::error::Matching fail-on-regex did not finish within timeout/);
    // The exit code and the message say the deadline ended the matching (unheeded, it would end
    // with no match and 0). Its bound is measured in one process (patterns.test.ts: within 1 s of
    // the deadline or a cancel); a whole step's start and end, which a loaded machine stretches,
    // get a margin here.
    expect(timedOut.endedAt - began).toBeLessThan(1000 + 5000);
    // Into the matching, which takes 1.2-2.4 s (more on a loaded machine): once the step has written
    // the lines it matches to its file (it writes a page, then matches it), never at a fixed time
    // (a loaded machine may not have started the step by then).
    const written = lines.reduce((n, line) => n + Buffer.byteLength(line), 0);
    const linesRead = (async () => {
      for (;;) {
        const size = await stat(file("slow.log")).then(
          (s) => s.size,
          () => 0,
        );
        if (size >= written) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const cancelled = await runBundle(actionDir, { inputs, cancelOn: linesRead });
    expect(cancelled.code).toBe(1);
    // 1 s on this machine when idle; the margin is a loaded machine's.
    expect(cancelled.endedAt - (cancelled.cancelledAt ?? 0)).toBeLessThan(5000);
  });
});
