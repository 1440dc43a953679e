import type { TestPlatform } from "@cwp/action-testing";

/**
 * Every page of the project list the same full page, whose next cursor leads to itself: a list
 * that never ends, which a report must not read for ever nor write from.
 */
export async function projectListGoingRound(platform: TestPlatform): Promise<void> {
  const projects = Array.from({ length: 100 }, (_, i) => ({
    id: `loop-${i}`,
    uid: (i + 1).toString(16).padStart(24, "0"),
    name: `Loop ${i}`,
  }));
  await platform.control("POST", "faults", {
    method: "GET",
    path: "/v1/projects",
    status: 200,
    body: { data: { projects }, pagination: { hasNextPage: true, cursor: "again", count: 100 } },
    times: 100_000,
  });
}
