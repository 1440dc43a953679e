import { describe, expect, it } from "vitest";
import type { LogLine } from "../src/index.js";
import { useScriptedPlatform } from "./helpers/scripted-server.js";

const t = useScriptedPlatform();

/** Serves `lines` as the platform does: [startTime, endTime), in the direction asked, at most lineLimit. */
function serveLogs(lines: LogLine[]) {
  t.server.on("GET", "/v1/projects/p/services/s/build-logs", (req) => {
    const start = req.query.get("startTime") ?? "";
    const end = req.query.get("endTime") ?? "~";
    const limit = Number(req.query.get("lineLimit"));
    const inRange = lines.filter((l) => l.ts >= start && l.ts < end);
    const ordered = req.query.get("direction") === "backward" ? inRange.reverse() : inRange;
    return { body: { data: ordered.slice(0, limit) } };
  });
}

const ts = (second: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, second)).toISOString();

describe("log follower", () => {
  it("returns every line once across page boundaries that split a timestamp", async () => {
    // Groups of lines sharing a timestamp, including identical lines, straddle the page size of 3.
    const lines: LogLine[] = [];
    for (let s = 0; s < 6; s++) {
      for (let i = 0; i < (s % 3) + 1; i++)
        lines.push({ containerId: "c1", log: s === 4 ? "same line" : `line ${s}.${i}`, ts: ts(s) });
    }
    serveLogs(lines);
    const follower = t.client.builds.followLogs("p", "s", "b1", { startTime: ts(0), pageSize: 3 });
    expect(await follower.next()).toEqual(lines);
    expect(await follower.next()).toEqual([]);
  });

  it("picks up where it stopped when new lines arrive, and gets past a page of one timestamp", async () => {
    const lines: LogLine[] = [{ containerId: "c", log: "a", ts: ts(1) }];
    serveLogs(lines);
    const follower = t.client.builds.followLogs("p", "s", "b1", { startTime: ts(0), pageSize: 2 });
    expect((await follower.next()).map((l) => l.log)).toEqual(["a"]);
    lines.push(...["b", "c", "d", "e"].map((log) => ({ containerId: "c", log, ts: ts(2) })), {
      containerId: "c",
      log: "f",
      ts: ts(3),
    });
    expect((await follower.next()).map((l) => l.log)).toEqual(["b", "c", "d", "e", "f"]);
    expect(t.server.requests.every((r) => r.query.get("buildId") === "b1")).toBe(true);
  });

  it("hands over the pages it read before a stop: they are behind its cursor, never read again", async () => {
    // A whole first page, then the read of the second is stopped (the work concluded, the step
    // drains): the first page's lines come out of that call, and the next call goes on after them.
    const lines = ["a", "b", "c"].map((log, i) => ({ containerId: "c", log, ts: ts(i) }));
    const stop = new AbortController();
    t.server.on("GET", "/v1/projects/p/services/s/build-logs", (req, n) => {
      if (n === 2) stop.abort();
      const start = req.query.get("startTime") ?? "";
      return { body: { data: lines.filter((l) => l.ts >= start).slice(0, 2) } };
    });
    const follower = t.client.builds.followLogs("p", "s", "b1", { startTime: ts(0), pageSize: 2 });
    expect((await follower.next(stop.signal)).map((l) => l.log)).toEqual(["a", "b"]);
    expect((await follower.next()).map((l) => l.log)).toEqual(["c"]);
  });
});
