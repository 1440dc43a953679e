import { describe, expect, it } from "vitest";
import { contractHarness } from "./contract.js";
import type { ContractSpec } from "./contract-spec.js";

// What a live platform may answer that the spec does not show, sent through the emulator's
// rewrite faults into the committed bundle: fields left out or null, a status the spec does not
// list, answers that cannot be read. The step's result must be what the work's was.

const UNLISTED = "REHYDRATING";

export function oddAnswersContract(spec: ContractSpec): void {
  const { platform, run, failureMessage } = contractHarness(spec);
  const { unread, status, readsBeforeStart = 0 } = spec.answers;
  const data = (path: string) => `data.${path}`;
  /** Every poll answer from the start on (and the start's own answer) rewritten so. */
  const rewriteAll = async (rewrite: Record<string, unknown>) => {
    await platform.control("POST", "faults", [
      { method: "POST", path: spec.start.path, rewrite },
      { method: "GET", path: `${spec.poll}*`, rewrite, skip: readsBeforeStart, times: 100_000 },
    ]);
  };
  /** Long work whose every status read, from the start on, is answered with what is not JSON. */
  const unreadableForever = async () => {
    await platform.control("POST", "outcomes", { kind: spec.outcome, durationSeconds: 36_000 });
    await platform.control("POST", "faults", {
      method: "GET",
      path: `${spec.poll}*`,
      malformed: true,
      skip: readsBeforeStart,
      times: 100_000,
    });
  };
  const starts = async () =>
    (await platform.requests()).filter((r) => r.method === "POST" && r.path === spec.start.path);

  describe("odd answers", () => {
    it("succeeds when its answers leave out every member no step reads", async () => {
      await rewriteAll({ omit: unread.map(data) });
      const result = await run();
      expect(result.code, result.stdout).toBe(0);
      expect(await starts()).toHaveLength(1);
    });

    it("succeeds when those members are null", async () => {
      await rewriteAll({ set: Object.fromEntries(unread.map((path) => [data(path), null])) });
      const result = await run();
      expect(result.code, result.stdout).toBe(0);
      expect(await starts()).toHaveLength(1);
    });

    it("waits through a status the spec does not list, with one warning naming it", async () => {
      // Work that runs past the polls whose answers say the unlisted status.
      await platform.control("POST", "outcomes", { kind: spec.outcome, durationSeconds: 150 });
      await platform.control("POST", "faults", {
        method: "GET",
        path: `${spec.poll}*`,
        rewrite: { set: { [data(status)]: UNLISTED } },
        skip: readsBeforeStart,
        times: 2,
      });
      const result = await run();
      expect(result.code, result.stdout).toBe(0);
      const warnings = result.stdout
        .split("\n")
        .filter((l) => l.startsWith("::warning::") && l.includes(UNLISTED));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("the wait goes on");
    });

    it('reads a poll answer that cannot be read again: not JSON, then {"data": null}', async () => {
      await platform.control("POST", "faults", [
        { method: "GET", path: `${spec.poll}*`, malformed: true, skip: readsBeforeStart },
        { method: "GET", path: `${spec.poll}*`, status: 200, body: { data: null }, skip: readsBeforeStart },
      ]);
      const result = await run();
      expect(result.code, result.stdout).toBe(0);
      expect(await starts()).toHaveLength(1);
    });

    it("when no poll answer can be read, ends the work where it may and says what became of it", async () => {
      await unreadableForever();
      const result = await run();
      expect(result.code).toBe(1);
      expect(failureMessage(result)).toMatch(
        spec.abort
          ? /could not be followed to its end.*not JSON.*it was aborted on the platform/
          : /could not be followed to its end.*may still be running.*Look at its status/,
      );
      expect(await starts()).toHaveLength(1);
    });

    if (spec.abort)
      it("with abort-on-cancel false, leaves the work running and says how to see it", async () => {
        await unreadableForever();
        const result = await run({ "abort-on-cancel": "false" });
        expect(result.code).toBe(1);
        expect(failureMessage(result)).toMatch(
          /left running \(abort-on-cancel is false\)\. Look at its status/,
        );
        const aborts = (await platform.requests()).filter(
          (r) => spec.abort?.path.test(r.path) && r.method === spec.abort.method,
        );
        expect(aborts).toHaveLength(0);
      });
  });
}
