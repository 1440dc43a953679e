import { fileURLToPath } from "node:url";
import { runBundle, useTestPlatform } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";

const actionDir = fileURLToPath(new URL("..", import.meta.url));

describe("run-template: a release gate", () => {
  const platform = useTestPlatform();
  const base = () => ({
    ...platform.connection(),
    "template-id": "release",
  });

  it("takes arguments as JSON, YAML or KEY=VALUE lines; YAML keeps what was written as text", async () => {
    await platform.reset();
    for (const args of [
      '{"version": "1.2.3", "replicas": 3}',
      "version: 1.10\nreplicas: 0012\nflags:\n  canary: true",
      "version=1.2.3\nreplicas=3",
    ])
      expect(
        (await runBundle(actionDir, { inputs: { ...base(), arguments: args, wait: "false" } })).code,
      ).toBe(0);
    const bodies = (await platform.requests()).filter((r) => r.method === "POST").map((r) => r.body);
    expect(bodies).toEqual([
      { arguments: { version: "1.2.3", replicas: 3 } },
      { arguments: { version: "1.10", replicas: "0012", flags: { canary: "true" } } },
      { arguments: { version: "1.2.3", replicas: "3" } },
    ]);
  });

  it("says why arguments nested too deep are refused, and takes them at the bound", async () => {
    await platform.reset();
    const nested = (levels: number) => `{"a":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`;
    const refused = await runBundle(actionDir, {
      inputs: { ...base(), arguments: nested(40_000), wait: "false" },
    });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/::error::.*Input "arguments".*it nests deeper than 64 levels/);
    const taken = await runBundle(actionDir, { inputs: { ...base(), arguments: nested(64), wait: "false" } });
    expect(taken.code, taken.stdout).toBe(0);
  });

  it("fails the gate when the run is aborted elsewhere", async () => {
    await platform.reset();
    await platform.control("POST", "outcomes", {
      kind: "templateRun",
      status: "aborted",
      succeed: false,
      durationSeconds: 10,
    });
    const result = await runBundle(actionDir, { inputs: base() });
    expect(result.code).toBe(1);
    expect(result.outputs.status).toBe("aborted");
  });
});

describe("run-template: a run that fails says why, as the platform says", () => {
  // A world's template that reads two arguments (examples/world.yaml's preview-env).
  const world = { projects: [], templates: [{ id: "preview-env", arguments: ["pull-request", "sha"] }] };
  const platform = useTestPlatform({ world, speed: 60 });

  it("names the argument a template reads that the run did not give", async () => {
    const result = await runBundle(actionDir, {
      inputs: { ...platform.connection(), "template-id": "preview-env", arguments: '{"pull-request": "42"}' },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /::error::Run tr-\S+ of template preview-env ended failure after \S+: the template reads \$\{args\.sha\}, which the run was not given: add sha to its arguments\./,
    );
    expect(result.summary).toContain("add sha to its arguments");
  });

  it("says the reason a failure was scripted with through the control plane, as a build's", async () => {
    await platform.reset();
    await platform.control("POST", "outcomes", {
      kind: "templateRun",
      succeed: false,
      durationSeconds: 5,
      message: "quota of preview environments reached",
    });
    const result = await runBundle(actionDir, {
      inputs: {
        ...platform.connection(),
        "template-id": "preview-env",
        arguments: '{"pull-request": "42", "sha": "abc"}',
      },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /::error::Run tr-\S+ of template preview-env ended failure after \S+: quota of preview environments reached\./,
    );
  });
});
