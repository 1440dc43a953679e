import type { LogLine } from "@cwp/client";
import { describe, expect, it } from "vitest";
import { useEmulatedClient } from "./emulated-client.js";

// Streaming a build's logs while waiting for it, on an account of 1000 requests an hour: lines
// show while the build runs, and a follower at the live end spends no request on a page that can
// bring nothing.

const e = useEmulatedClient({ rateLimit: 1000 });
const P = "platform-web";

describe("log streaming while waiting", () => {
  it("shows a 40-second build's lines while it runs, each within 10 s of being written", async () => {
    // The build prints its eight lines from 4 s to 39.6 s.
    await e.control("POST", "outcomes", { kind: "build", durationSeconds: 40 });
    const shown: Array<{ writtenAt: number; shownAt: number }> = [];
    const concludedAt = await e.run(async () => {
      const c = e.client();
      const build = await c.builds.start(P, "web", { branch: "main" });
      const stop = new AbortController();
      const follower = c.builds.followLogs(P, "web", build.id, { startTime: String(build.createdAt) });
      const take = (lines: LogLine[]) => {
        for (const l of lines) shown.push({ writtenAt: Date.parse(l.ts), shownAt: e.time.now() });
      };
      const streaming = e.run(() =>
        follower.stream({
          signal: stop.signal,
          onLines: take,
          onError: (error) => expect(error).toBeUndefined(),
        }),
      );
      await c.builds.waitFor(P, "web", build.id);
      const at = e.time.now();
      stop.abort();
      await streaming;
      for (let lines = await follower.next(); lines.length > 0; lines = await follower.next()) take(lines);
      return at;
    });
    expect(shown).toHaveLength(8);
    const [first] = shown;
    expect(first!.shownAt - first!.writtenAt).toBeLessThanOrEqual(10_000);
    const whileRunning = shown.filter((s) => s.shownAt < concludedAt);
    expect(whileRunning.length).toBeGreaterThanOrEqual(6);
    for (const s of whileRunning) expect(s.shownAt - s.writtenAt).toBeLessThanOrEqual(10_000);
  });

  it("at the live end, a read is one request: no page that brings nothing new", async () => {
    // Sixty lines over a minute; read every 10 s, as a stream at its slowest would.
    const lines = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`);
    await e.control("POST", "outcomes", { kind: "build", durationSeconds: 66, logLines: lines });
    const c = e.client();
    const build = await c.builds.start(P, "web", { branch: "main" });
    const follower = c.builds.followLogs(P, "web", build.id, { startTime: String(build.createdAt) });
    await e.control("DELETE", "requests");
    const read: string[] = [];
    let calls = 0;
    for (let s = 0; s < 70; s += 10) {
      await e.control("POST", "clock", { advanceSeconds: 10 });
      calls += 1;
      read.push(...(await follower.next()).map((l) => String(l.log)));
    }
    for (let more = await follower.next(); more.length > 0; more = await follower.next()) {
      read.push(...more.map((l) => String(l.log)));
    }
    expect(read).toEqual(lines);
    const reads = (await e.requests()).filter((r) => r.path.endsWith("/build-logs")).length;
    // One read a call, one more each time a short page is longer than any before (to learn that
    // the platform does not cut there: pages of 4, 11 and 12 lines here), and the last call, which
    // finds nothing. Reading on until a page brings nothing new cost two a call (15).
    expect(reads).toBeLessThanOrEqual(calls + 4);
  });
});
