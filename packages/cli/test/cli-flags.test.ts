import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inputsOf } from "@cwp/action-kit/engine";
import { deployments } from "@cwp/action-kit/github";
import { readActionYml } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../src/operations.js";
import { doesNothing } from "../src/terminal-help.js";
import { cwp, STARTS_WORK, useCliHarness } from "./cli-harness.js";
import { runCli } from "./run-cli.js";

useCliHarness();

// `cwp <operation>`: its flags are the action's inputs, --help lists each with an example, and
// the example runs as written against the emulator (cli-harness.ts runs it; cli.test.ts runs each
// operation's own cases).

describe("cwp: every operation has the action's inputs as flags", () => {
  for (const [name, { definition, metadata }] of Object.entries(OPERATIONS)) {
    it(`${name}: the definition's inputs are action.yml's, and --help lists each with an example`, async () => {
      const yml = await readActionYml(new URL(`../../../actions/${name}`, import.meta.url).pathname);
      const inputs = Object.keys(inputsOf(definition).shape).sort();
      // The actions that start work also record it as a GitHub deployment: inputs only a runner has.
      const onGitHub = STARTS_WORK.has(name) ? Object.keys(deployments.inputs) : [];
      expect([...inputs, ...onGitHub].sort()).toEqual(Object.keys(yml.inputs ?? {}).sort());
      const help = await runCli([name, "--help"]);
      expect(help.code).toBe(0);
      // An input that does nothing for this operation is taken but not offered.
      const used = inputs.filter((input) => !doesNothing(metadata.inputs[input]));
      for (const input of used) expect(help.stdout).toContain(`--${input}`);
      // A terminal records no GitHub deployment: no flag that would be ignored.
      for (const input of onGitHub) expect(help.stdout).not.toContain(`--${input} `);
      // In a terminal's words: no step, workflow cancel, runner folder or `with:` setting.
      expect(help.stdout).not.toMatch(
        /\bstep\b|workflow is cancelled|RUNNER_TEMP|job summary|Not used|\((?!default|preset)[\w-]+: \w+\)/i,
      );
      expect(help.stdout).toMatch(new RegExp(`Example .*:\n  cwp ${name} --`));
    });

    it(`${name}: the example in --help runs as written against the emulator`, async () => {
      const help = await runCli([name, "--help"]);
      const example = /Example .*:\n {2}cwp (.+)\n/.exec(help.stdout)?.[1] ?? "";
      // Shell words: plain, or in single quotes (what the examples use).
      const words = [...example.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? "");
      expect(words[0]).toBe(name);
      const cwd = await mkdtemp(join(tmpdir(), `cwp-example-${name}-`));
      const result = await cwp(words, { cwd });
      expect(result.code, result.stderr).toBe(0);
      // A relative path is where the person ran it.
      const at = words.findIndex((w) => w.startsWith("--output-"));
      if (at >= 0) expect(await readdir(cwd)).toContain(words[at + 1]);
    });
  }
});
