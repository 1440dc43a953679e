import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { type StandIn, startGitHubStandIn } from "./stand-in.js";

/**
 * GitHub's stand-in for a describe block: started before its tests, closed after them, and after
 * each test its faults dropped and no request GitHub would refuse (a test expects none). Use the
 * stand-in inside tests: `github().url`.
 */
export function useGitHubStandIn(token: string): () => StandIn {
  let github: StandIn | undefined;
  beforeAll(async () => {
    github = await startGitHubStandIn(token);
  });
  afterAll(() => github?.close());
  afterEach(() => {
    github?.heal();
    expect(github?.violations.splice(0)).toEqual([]);
  });
  return () => {
    if (!github) throw new Error("GitHub's stand-in starts in beforeAll: use it inside tests");
    return github;
  };
}
