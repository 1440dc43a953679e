import { describe, expect, it } from "vitest";
import type { Clock } from "../src/index.js";
import { WaitTimeoutError } from "../src/index.js";
import { RateLimitBudget } from "../src/transport/rate-limit.js";
import { pollUntilConcluded } from "../src/waiting/poll.js";

// A wait at the very edge of its deadline, on a clock of its own: time moves only by what the wait
// sleeps, so "now" lands on the deadline exactly. The wait must end there with a WaitTimeoutError,
// never poll again at the deadline (with a clock that stands still, that is a wait that never ends).

/** A clock that moves only when slept on. */
function steppingClock(start: number): Clock {
  let now = start;
  return {
    now: () => now,
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      now += Math.max(0, ms);
    },
  };
}

describe("a wait's deadline", () => {
  it("ends exactly at the deadline, after the poll made there, and polls no more", async () => {
    const clock = steppingClock(0);
    const readAt: number[] = [];
    const wait = pollUntilConcluded(
      {
        what: "build b",
        read: async (deadline) => {
          readAt.push(clock.now());
          // A wait reading past its deadline, or again at it, is the bug: it ends here, loudly.
          if (clock.now() > deadline || readAt.filter((t) => t === deadline).length > 1)
            throw new Error(`read at ${clock.now()} ms, the deadline being ${deadline} ms`);
          return { status: "BUILDING" };
        },
        conclude: (r) => ({ status: r.status, concluded: false, success: false }),
        rateLimit: new RateLimitBudget(clock),
        clock,
        where: { method: "GET", path: "/v1/projects/p/services/s/build/b" },
        warn: () => {},
      },
      { deadline: 10_000, initialIntervalMs: 3_000, maxIntervalMs: 3_000 },
    );
    const error = await wait.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError<{ status: string }>).last).toEqual({ status: "BUILDING" });
    expect(clock.now()).toBe(10_000);
    // The first read at once, then every 3 s, and the last one at the deadline itself.
    expect(readAt).toEqual([0, 3_000, 6_000, 9_000, 10_000]);
  });
});
