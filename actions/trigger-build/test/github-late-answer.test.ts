import { fileURLToPath } from "node:url";
import {
  type Deployment,
  latestState,
  runBundle,
  type StandIn,
  startGitHubStandIn,
  useTestPlatform,
} from "@cwp/action-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const actionDir = fileURLToPath(new URL("..", import.meta.url));

// Real time is this test's subject: one attempt of a GitHub call is capped at 30 s of this
// machine's clock, and a creation's answer is waited for past that. In a file of its own, so
// that its half minute of waiting runs beside the other files rather than at the end of one.

describe("trigger-build: GitHub's late answer to a deployment's creation", () => {
  const platform = useTestPlatform();
  const token = "ghs_late_answer_token_0123456789";
  let github: StandIn;
  beforeAll(async () => {
    github = await startGitHubStandIn(token);
  });
  afterAll(() => github.close());

  it("waits past 30 s for the creation's answer within the step's time: one deployment, recorded", {
    timeout: 90_000,
  }, async () => {
    await platform.reset();
    // GitHub makes the deployment at once and answers 32 s later (a request's own cap is 30 s).
    github.fail({ operationId: "repos/create-deployment", delayMs: 32_000 });
    const result = await runBundle(actionDir, {
      inputs: {
        ...platform.connection(),
        "project-id": "platform-web",
        "service-id": "web",
        branch: "main",
        environment: "staging",
        "github-token": token,
        timeout: "2m",
      },
      env: { GITHUB_API_URL: github.url, GITHUB_SERVER_URL: "https://github.example", GITHUB_RUN_ID: "77" },
    });
    expect(result.code, result.stdout).toBe(0);
    expect(github.deployments).toHaveLength(1);
    expect(latestState(github.deployments[0] as Deployment)).toBe("success");
    expect(github.calls.filter((c) => c.startsWith("POST") && c.endsWith("/deployments"))).toHaveLength(1);
    expect(github.violations).toEqual([]);
  });
});
