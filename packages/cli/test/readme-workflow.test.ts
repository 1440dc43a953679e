import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readWorkflow } from "@cwp/workflow-rehearsal";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { rehearse, userMachine } from "./rehearse-machine.js";

// The root README's first workflow, the one a user copies first: GitHub's own parser takes it,
// each `uses:` is one of our actions with only inputs its action.yml has, no `${{ }}` stands in a
// `run:` script (a value through `env:` instead), and `cwp rehearse` of it passes on the example
// world, on a push to main (the release skipped) and on a tag's (the release gated and run).

const root = fileURLToPath(new URL("../../../", import.meta.url));
const readme = await readFile(join(root, "README.md"), "utf8");
const workflow = /^```yaml\n([\s\S]*?)^```/m.exec(readme)?.[1] ?? "";

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
const steps = Object.values((parse(workflow) as { jobs: Record<string, { steps: Step[] }> }).jobs).flatMap(
  (job) => job.steps,
);

describe("the README's first workflow", () => {
  it("is read by GitHub's own parser", async () => {
    expect(workflow).toContain("acme/cwp/actions/");
    await expect(readWorkflow(workflow, "README.md")).resolves.toBeDefined();
  });

  it("uses our actions with their inputs only, pinned by tag and by commit SHA", async () => {
    const used = steps.filter((step) => step.uses !== undefined);
    expect(used.length).toBeGreaterThan(0);
    const refs: string[] = [];
    for (const step of used) {
      const [, action, ref] = /^acme\/cwp\/actions\/([a-z-]+)@(\S+)$/.exec(step.uses ?? "") ?? [];
      expect(action, step.uses).toBeDefined();
      const metadata = parse(await readFile(join(root, "actions", action ?? "", "action.yml"), "utf8")) as {
        inputs: Record<string, unknown>;
      };
      for (const input of Object.keys(step.with ?? {}))
        expect(Object.keys(metadata.inputs), `${action}: ${input}`).toContain(input);
      refs.push(ref ?? "");
    }
    expect(refs).toContain("v1");
    expect(refs.some((ref) => /^[0-9a-f]{40}$/.test(ref))).toBe(true);
  });

  it("passes values to scripts through env:, never ${{ }} inside run:", () => {
    const scripts = steps.filter((step) => step.run !== undefined);
    expect(scripts.length).toBeGreaterThan(0);
    for (const step of scripts) expect(step.run).not.toContain("${{");
  });

  it("rehearses green on the example world: a push to main builds; a tag's push releases too", async () => {
    const machine = await userMachine(workflow);
    const given = ["--world", join(root, "examples/world.yaml"), "--secret", "CWP_API_TOKEN=any"];
    const push = await rehearse(machine, given);
    expect(push.code, push.stdout + push.stderr).toBe(0);
    expect(push.stdout).toContain("✔ job build would pass");
    expect(push.stdout).toContain("job release: would not run");
    const tag = await rehearse(machine, [...given, "--ref", "refs/tags/v1.4.2"]);
    expect(tag.code, tag.stdout + tag.stderr).toBe(0);
    expect(tag.stdout).toContain("✔ job release would pass");
    expect(tag.stdout).toMatch(/Released registry\.\S+ after template run \S+/);
  });
});
