import { describe, expect, it } from "vitest";
import { EXIT_CODES } from "../src/exit-codes.js";
import { argsOf, cwp, OPS, platform, posts, useCliHarness } from "./cli-harness.js";

useCliHarness();

// How `cwp <operation>` ends against the emulator when its work does not succeed: exit 1 when the
// work concludes unsuccessfully, 130 on SIGINT (its success and refusals: cli.test.ts).

describe("cwp: each operation's ending", () => {
  for (const [name, op] of Object.entries(OPS)) {
    if (op.outcome)
      it(`${name}: exits 1 when the work concludes unsuccessfully`, async () => {
        await platform.control("POST", "outcomes", { kind: op.outcome, succeed: false, durationSeconds: 5 });
        const result = await cwp([name, ...argsOf(name)]);
        expect(result.code).toBe(EXIT_CODES.failed);
        expect(result.stderr).toMatch(/error: .+ ended \S+/);
      });

    if (op.outcome && op.start)
      it(`${name}: exits 130 on SIGINT, ${op.abort ? "after aborting the work" : "saying it may still run"}`, async () => {
        await platform.control("POST", "outcomes", { kind: op.outcome, durationSeconds: 36_000 });
        const result = await cwp([name, ...argsOf(name)], {
          cancelWhen: (printed) => printed.includes("Started "),
        });
        expect(result.code).toBe(EXIT_CODES.cancelled);
        expect(result.endedAt - (result.cancelledAt ?? 0)).toBeLessThan(9000);
        const aborts = op.abort
          ? (await platform.requests()).filter((r) => r.method !== "GET" && op.abort?.test(r.path))
          : [];
        expect(aborts).toHaveLength(op.abort ? 1 : 0);
        expect(result.stderr).toMatch(op.abort ? /aborted on the platform/ : /may still be running/);
        // In a terminal's words: a signal cancelled it, not a workflow.
        expect(result.stderr).toMatch(/cancelled by a signal \(Ctrl-C or SIGTERM\)/i);
        expect(result.stderr).not.toMatch(/workflow/i);
        expect(await posts(op.start ?? "")).toHaveLength(1);
      });
  }
});
