import { olderNodeOnPath } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

// Most machines have an older Node than cwp needs (Node 20 here, as on CI's machine): cwp says
// which it needs, instead of dying while loading.

const older = olderNodeOnPath();

describe.skipIf(older === undefined)(`cwp under an older Node (${older})`, () => {
  it.each([["--help"], ["trigger-build", "--project-id", "p", "--service-id", "s"], ["emulator"]])(
    "cwp %s says in one sentence which Node it needs and how to get it, and exits 1",
    async (...args) => {
      const result = await runCli(args, { node: older });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      // This is a clone: its set-up brought Node 24, and the message says how to run with it.
      expect(result.stderr).toMatch(
        /^cwp needs Node\.js 22\.19 or later, and this is Node\.js \d+\.\d+\.\d+: inside this clone, run it with the clone's Node 24: `pnpm exec node packages\/cli\/bin\/cwp\.js \.\.\.`/,
      );
    },
  );
});
