import { NumberToken } from "@actions/workflow-parser/templates/tokens/index";
import { describe, expect, it } from "vitest";
import {
  EnvFileError,
  expandMatrix,
  fileCommandText,
  Masks,
  nodeWarnings,
  prependPath,
  readEnvFile,
  readGithubEnv,
  readGithubPath,
} from "../src/index.js";
import { ALWAYS } from "../src/job/status.js";
import { stepTimeoutMs } from "../src/job/timeouts.js";
import { forcedOntoNode24 } from "../src/local-actions.js";

// The runner's rules, one by one. Environment files: "Workflow commands for GitHub Actions",
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#environment-files;
// masking: "Using secrets in GitHub Actions",
// https://docs.github.com/en/actions/security-for-github-actions/security-guides/using-secrets-in-github-actions

// actions/runner src/Runner.Worker/FileCommandManager.cs, EnvFileKeyValuePairs, SetEnvFileCommand and
// AddPathFileCommand (the fork google-ml-infra/runner @10451bed, the newest copy the index holds).
describe("file commands, read as the runner's code reads them (FileCommandManager.cs)", () => {
  it("takes NAME=value lines and heredocs up to the first line that is the delimiter", () => {
    expect(readEnvFile("a=1\n\nb<<EOF\nx\ny=z\nEOF\nc=EOF\n")).toEqual({ a: "1", b: "x\ny=z", c: "EOF" });
    expect(readEnvFile("empty<<EOF\nEOF\nlast=no newline")).toEqual({ empty: "", last: "no newline" });
  });

  it("ReadLine ends a line at \\n only on Linux: a CR stays in the value, and a delimiter with one is not the delimiter", () => {
    expect(readEnvFile("a=1\r\nb<<EOF\nx\r\nEOF\r\nEOF\n")).toEqual({ a: "1\r", b: "x\r\nEOF\r" });
  });

  it("a UTF-8 byte order mark is not part of the first name (StreamReader); a file a step deleted is no command", () => {
    expect(readEnvFile(fileCommandText("\uFEFFname=value\n"))).toEqual({ name: "value" });
    expect(readEnvFile(fileCommandText(undefined))).toEqual({});
  });

  it("a delimiter inside a value ends it there; what follows is read as lines", () => {
    expect(() => readEnvFile("a<<END\nfirst\nEND\nsecond\nEND\n")).toThrow(
      new EnvFileError("Invalid format 'second'"),
    );
  });

  it("refuses a heredoc without its delimiter or whose last line has no newline, a line of neither form, and an empty name", () => {
    expect(() => readEnvFile("a<<EOF\nvalue\n")).toThrow("Invalid value. Matching delimiter not found 'EOF'");
    expect(() => readEnvFile("a<<EOF\nvalue")).toThrow("Invalid value. EOF marker missing new line.");
    expect(() => readEnvFile("just words\n")).toThrow("Invalid format 'just words'");
    expect(() => readEnvFile("=value\n")).toThrow("Invalid format '=value'. Name must not be empty");
  });

  it("leaves NODE_OPTIONS out of GITHUB_ENV in any case, with the runner's error annotation: the step goes on", () => {
    expect(readGithubEnv("node_options=--require x\nA=1\n")).toEqual({
      env: { A: "1" },
      errors: ["Can't store NODE_OPTIONS output parameter using '$GITHUB_ENV' command."],
    });
  });

  it("GITHUB_PATH: a folder a line, the latest added first on PATH, one added again moved rather than repeated", () => {
    const path = ["/usr/bin"];
    prependPath(path, readGithubPath("/a\r\n/b\n\n/a\n"));
    expect(path).toEqual(["/a", "/b", "/usr/bin"]);
    prependPath(path, ["/usr/bin"]);
    expect(path).toEqual(["/usr/bin", "/a", "/b"]);
  });
});

describe("the Node of a JavaScript action (https://github.blog/changelog/2025-09-19-deprecation-of-node-20-on-github-actions-runners/)", () => {
  it("the runner's words for an older using:, nothing for node24; a rehearsal's Node that is not 24 is named", () => {
    expect(forcedOntoNode24("node24", "./a")).toEqual([]);
    expect(forcedOntoNode24("node20", "./a")).toEqual([
      "Node.js 20 is deprecated. The following actions target Node.js 20 but are being forced to run on Node.js 24: ./a. For more information see: https://github.blog/changelog/2025-09-19-deprecation-of-node-20-on-github-actions-runners/",
    ]);
    expect(nodeWarnings("24.11.1")).toEqual([]);
    expect(nodeWarnings("22.19.0")).toEqual([
      "The rehearsal runs JavaScript actions with the Node that runs it, 22.19.0; GitHub's runner has Node 24",
    ]);
  });
});

describe("masks", () => {
  it("hide a secret whole, line by line, and in Base64 at any offset of a longer Base64 text", () => {
    const secret = "-----BEGIN-----\nline two of the key\n-----END-----";
    const masks = new Masks();
    masks.add(secret);
    expect(masks.apply(`x ${secret} y`)).toBe("x *** y");
    expect(masks.apply("only line two of the key here")).toBe("only *** here");
    for (const before of ["", "a", "ab", "abc", "abcd"])
      for (const after of ["", "z", "zz"]) {
        const encoded = Buffer.from(`${before}${secret}${after}`).toString("base64");
        const shown = masks.apply(encoded);
        expect(shown, `${before}|${after}`).toContain("***");
        // What is left shows at most a character or two of the secret's own bytes at each end.
        expect(shown.replace("***", "").length, `${before}|${after}`).toBeLessThanOrEqual(12);
      }
  });
});

describe("matrix bounds", () => {
  // "A matrix will generate a maximum of 256 jobs per workflow run":
  // https://docs.github.com/en/actions/how-tos/write-workflows/choose-what-workflows-do/run-job-variations
  it("takes 256 jobs, refuses 257, and refuses 12^6 without making a combination", () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => i);
    expect(expandMatrix({ a: list(16), b: list(16) })).toHaveLength(256);
    expect(() => expandMatrix({ a: list(16), b: list(16), include: [{ a: 99 }] })).toThrow(
      "strategy.matrix would run 257 jobs",
    );
    const began = performance.now();
    expect(() => expandMatrix(Object.fromEntries("abcdef".split("").map((v) => [v, list(12)])))).toThrow(
      "strategy.matrix would run 2985984 jobs: a matrix generates at most 256 jobs per workflow run",
    );
    expect(performance.now() - began).toBeLessThan(1_000);
  });

  it("counts what excludes leave: 17 × 17 less a row is within 256 jobs", () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => i);
    const jobs = expandMatrix({ a: list(17), b: list(16), exclude: [{ a: 0 }] });
    expect(jobs).toHaveLength(256);
  });
});

// A step's timeout-minutes as the runner converts it: `(Int32)numberToken.Value` (actions/runner
// src/Sdk/DTPipelines/Pipelines/ObjectTemplating/PipelineTemplateConverter.cs @02359d2b, line 210),
// a timeout only `if (timeoutMinutes > 0)` (src/Runner.Worker/StepsRunner.cs @00a736d9, RunStepAsync).
describe("a step's timeout-minutes", () => {
  const scope = { contexts: {}, status: ALWAYS, workspace: "." };
  const minutes = (value: number) =>
    stepTimeoutMs(new NumberToken(undefined, undefined, value, undefined), scope);
  it("is whole minutes, the fraction cut off; 0 or less is no timeout", () => {
    expect(minutes(1.9)).toBe(60_000);
    expect(minutes(2)).toBe(120_000);
    expect(minutes(0.99)).toBeUndefined();
    expect(minutes(0)).toBeUndefined();
    expect(minutes(-3)).toBeUndefined();
  });
});
