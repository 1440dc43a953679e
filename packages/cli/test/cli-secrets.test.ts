import { leakedSecrets } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";
import { EXIT_CODES } from "../src/exit-codes.js";
import { asRun, BUILD, cwp, platform, results, useCliHarness } from "./cli-harness.js";
import { runCli } from "./run-cli.js";

useCliHarness();

// `cwp <operation>` never prints a token, a secret value or a terminal escape, whatever the
// platform echoes (cli-harness.ts runs it; exit codes: cli-exit-codes.test.ts).

describe("cwp: what it never prints", () => {
  it("takes the token and URL from flags too, and never prints the token or a secret value", async () => {
    const secret = "npm_cli_s3cret_value";
    const result = await runCli(
      [
        ...BUILD,
        "--api-token",
        platform.tokens.org,
        "--api-url",
        platform.url,
        "--build-arguments",
        `NPM_TOKEN=${secret}`,
      ],
      { env: {} },
    );
    results.push(result);
    expect(result.code, result.stderr).toBe(0);
    expect(leakedSecrets(asRun(result), [platform.tokens.org, secret])).toEqual([]);
  });

  it("redacts a masked value the platform echoes in an error, in every mode: the summary, the error, --json", async () => {
    const secret = "npm_echoed_s3cret_value";
    await platform.control("POST", "faults", {
      method: "POST",
      path: "/v1/projects/platform-web/services/web/build",
      status: 400,
      body: { error: { status: 400, message: `Invalid build argument NPM_TOKEN=${secret}`, id: "err_echo" } },
    });
    const text = await cwp([...BUILD, "--build-arguments", `NPM_TOKEN=${secret}`]);
    expect(text.code).toBe(EXIT_CODES.failed);
    expect(text.stderr).toContain("NPM_TOKEN=***");
    await platform.control("POST", "faults", {
      method: "POST",
      path: "/v1/projects/platform-web/services/web/build",
      status: 400,
      body: { error: { status: 400, message: `Invalid build argument NPM_TOKEN=${secret}`, id: "err_echo" } },
    });
    const json = await cwp([...BUILD, "--build-arguments", `NPM_TOKEN=${secret}`, "--json"]);
    expect(json.code).toBe(EXIT_CODES.failed);
    expect(JSON.parse(json.stdout).error.message).toContain("NPM_TOKEN=***");
    for (const result of [text, json]) expect(leakedSecrets(asRun(result), [secret])).toEqual([]);
  });

  it("prints no terminal escape from the platform's text", async () => {
    await platform.control("POST", "outcomes", {
      kind: "build",
      durationSeconds: 5,
      logLines: ["\u001b[2J\u001b[Hwiped", "ok"],
    });
    const result = await cwp(BUILD);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("\u001b[2J");
    expect(result.stdout).toContain("wiped");
  });
});
