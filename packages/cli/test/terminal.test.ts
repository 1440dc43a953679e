import { Writable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { TerminalHost } from "../src/terminal.js";

// The terminal host on a TTY and off one: a live progress line and colours only on a TTY and
// without NO_COLOR; with --json, stdout holds the outputs alone.

function stream(isTTY: boolean) {
  let text = "";
  const s = new Writable({
    write(chunk, _encoding, done) {
      text += chunk;
      done();
    },
  }) as Writable & { isTTY?: boolean };
  s.isTTY = isTTY;
  return { s, text: () => text };
}

describe("the terminal host", () => {
  it("on a TTY: redraws one progress line, clears it before the next line, and colours", async () => {
    const out = stream(true);
    const host = new TerminalHost({ json: false, stdout: out.s, stderr: stream(false).s, env: {} });
    host.progress("[1s] build b1: BUILDING");
    host.progress("[2s] build b1: BUILDING");
    host.info("done");
    await host.report({
      action: "trigger-build",
      title: "build b1",
      outcome: "success",
      rows: [["Build", "b1"]],
    });
    expect(out.text()).toContain("\r\x1b[2K");
    expect(out.text()).toContain("\x1b[1m");
    expect(
      out
        .text()
        .split("\n")
        .filter((l) => l.includes("BUILDING")),
    ).toHaveLength(1);
  });

  it("off a TTY, or with NO_COLOR or TERM=dumb: no escape code at all, no progress line redrawn", async () => {
    for (const [tty, env] of [
      [false, {}],
      [true, { NO_COLOR: "1" }],
      [true, { TERM: "dumb" }],
    ] as const) {
      const out = stream(tty);
      const host = new TerminalHost({ json: false, stdout: out.s, stderr: stream(false).s, env });
      host.progress("[1s] build b1: BUILDING");
      host.info("done");
      await host.report({ action: "run-job", title: "run r1", outcome: "failure", rows: [["Run", "r1"]] });
      host.finish(out.s);
      expect(out.text()).not.toContain("\x1b");
      expect(out.text()).not.toContain("BUILDING");
    }
  });

  it("with --json: stdout holds one JSON object of typed outputs, everything else goes to stderr", () => {
    const out = stream(false);
    const err = stream(false);
    const host = new TerminalHost({ json: true, stdout: out.s, stderr: err.s, env: {} });
    host.info("Started build b1.");
    host.outputs({
      "build-id": { text: "b1", type: "string" },
      concluded: { text: "true", type: "boolean" },
      lines: { text: "3", type: "number" },
      "change-percent": { text: "-4.5", type: "number" },
      "budget-used-percent": { text: "", type: "number" },
    });
    host.finish(out.s);
    expect(JSON.parse(out.text())).toEqual({
      "build-id": "b1",
      concluded: true,
      lines: 3,
      "change-percent": -4.5,
      "budget-used-percent": null,
    });
    expect(err.text()).toContain("Started build b1.");
  });

  /** A host on a clock the test moves, and two minutes of polls every 10 s. */
  function waiting(isTTY: boolean) {
    const out = stream(isTTY);
    const clock = { now: 0 };
    const host = new TerminalHost({
      json: false,
      stdout: out.s,
      stderr: stream(false).s,
      env: {},
      clock: { now: () => clock.now, sleep: async () => {} },
    });
    const poll = () => {
      for (clock.now = 0; clock.now <= 120_000; clock.now += 10_000)
        host.progress(`[${clock.now / 1000}s] build b1: running`);
    };
    return { out, clock, host, poll };
  }

  it("outside a terminal, says where a wait stands after a silence of 50 s, never on every poll", () => {
    const { out, clock, host, poll } = waiting(false);
    host.info("Started build b1.");
    poll();
    expect(out.text().split("\n").filter(Boolean)).toEqual([
      "Started build b1.",
      "[50s] build b1: running",
      "[100s] build b1: running",
    ]);
    // A status line resets the silence.
    host.info("[105s] build b1: deploying");
    clock.now = 140_000;
    host.progress("[140s] build b1: deploying");
    expect(out.text()).not.toContain("[140s]");
  });

  it("outside a terminal, a line at least every 60 s whatever the polls do: polls minutes apart", () => {
    vi.useFakeTimers();
    try {
      const out = stream(false);
      const host = new TerminalHost({ json: false, stdout: out.s, stderr: stream(false).s, env: {} });
      host.info("Started build b1.");
      host.progress("[0s] build b1: BUILDING");
      // The next poll is five minutes away: nothing else is said meanwhile.
      vi.advanceTimersByTime(5 * 60_000);
      const lines = out.text().split("\n").filter(Boolean);
      expect(lines[0]).toBe("Started build b1.");
      expect(lines.slice(1).every((l) => l === "still waiting; last status [0s] build b1: BUILDING")).toBe(
        true,
      );
      // At most 60 s apart: 5 beats in five minutes.
      expect(lines.length - 1).toBeGreaterThanOrEqual(5);
      host.finish(stream(false).s);
      vi.advanceTimersByTime(5 * 60_000);
      expect(out.text().split("\n").filter(Boolean)).toHaveLength(lines.length);
    } finally {
      vi.useRealTimers();
    }
  });

  it("on a terminal, the live line is the heartbeat: no extra lines", () => {
    const { out, poll } = waiting(true);
    poll();
    expect(out.text()).not.toContain("\n");
  });
});
