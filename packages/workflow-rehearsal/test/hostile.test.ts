import { describe, expect, it } from "vitest";
import { readWorkflow, WorkflowError } from "../src/index.js";

// Files built to exhaust a reader, refused as bad input before GitHub's parser spends minutes and
// gigabytes on them. The bound is this process's CPU time (a loaded machine stretches wall time,
// not it); `cwp rehearse` on the same files is tested in the CLI (exit 2, a 600 MB heap).

/** The error `text` is refused with, and the CPU time that took. */
async function refused(text: string): Promise<{ error: unknown; cpuMs: number }> {
  const before = process.cpuUsage();
  const error = await readWorkflow(text, "w.yml").catch((e: unknown) => e);
  const { user, system } = process.cpuUsage(before);
  return { error, cpuMs: (user + system) / 1000 };
}

describe("hostile workflow files", () => {
  it("an alias bomb: refused in under a second of CPU", async () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 10; i++) {
      const [name, before] = [String.fromCharCode(97 + i), String.fromCharCode(96 + i)];
      levels.push(`${name}: &${name} [${Array(10).fill(`*${before}`).join(", ")}]`);
    }
    const { error, cpuMs } = await refused(`${levels.join("\n")}\non: push\njobs: {}\n`);
    expect(error).toBeInstanceOf(WorkflowError);
    expect(String(error)).toContain(
      "w.yml: not read: its YAML aliases expand it to more than 100,000 values",
    );
    expect(cpuMs).toBeLessThan(1_000);
  });

  it("a flow sequence 20,000 deep: refused in under a second of CPU, never a stack overflow", async () => {
    const { error, cpuMs } = await refused(`on: push\njobs: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n`);
    expect(String(error)).toContain("w.yml: not read: it nests more than 64 levels deep");
    expect(cpuMs).toBeLessThan(1_000);
  });

  it("a 1 MB expression: refused by GitHub's parser in under a second of CPU", async () => {
    const { error, cpuMs } = await refused(
      `on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: echo \${{ ${"github.sha || ".repeat(80_000)}github.sha }}\n`,
    );
    expect(String(error)).toMatch(/\(Line: 6, Col: 14\): ErrorExceededMaxLength/);
    expect(cpuMs).toBeLessThan(1_000);
  });
});
