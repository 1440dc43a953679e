import { describe, expect, it } from "vitest";
import { expandMatrix } from "../src/index.js";

// The examples of "Running variations of jobs in a workflow", with the combinations the page
// says they give (https://docs.github.com/en/actions/how-tos/write-workflows/choose-what-workflows-do/run-job-variations).

describe("a matrix, expanded as GitHub's docs say", () => {
  it("every combination of its variables", () => {
    expect(expandMatrix({ version: [10, 12, 14], os: ["ubuntu-latest", "windows-latest"] })).toEqual([
      { version: 10, os: "ubuntu-latest" },
      { version: 10, os: "windows-latest" },
      { version: 12, os: "ubuntu-latest" },
      { version: 12, os: "windows-latest" },
      { version: 14, os: "ubuntu-latest" },
      { version: 14, os: "windows-latest" },
    ]);
  });

  it("#expanding-or-adding-matrix-configurations: include extends what it does not overwrite, else adds", () => {
    const matrix = {
      fruit: ["apple", "pear"],
      animal: ["cat", "dog"],
      include: [
        { color: "green" },
        { color: "pink", animal: "cat" },
        { fruit: "apple", shape: "circle" },
        { fruit: "banana" },
        { fruit: "banana", animal: "cat" },
      ],
    };
    expect(expandMatrix(matrix)).toEqual([
      { fruit: "apple", animal: "cat", color: "pink", shape: "circle" },
      { fruit: "apple", animal: "dog", color: "green", shape: "circle" },
      { fruit: "pear", animal: "cat", color: "pink" },
      { fruit: "pear", animal: "dog", color: "green" },
      { fruit: "banana" },
      { fruit: "banana", animal: "cat" },
    ]);
  });

  it("#excluding-matrix-configurations: an entry removes every combination it matches", () => {
    const matrix = {
      os: ["macos-latest", "windows-latest"],
      version: [12, 14, 16],
      environment: ["staging", "production"],
      exclude: [
        { os: "macos-latest", version: 12, environment: "production" },
        { os: "windows-latest", version: 16 },
      ],
    };
    const combinations = expandMatrix(matrix);
    expect(combinations).toHaveLength(12 - 1 - 2);
    expect(combinations).not.toContainEqual({ os: "windows-latest", version: 16, environment: "staging" });
  });

  it("a matrix of include only is its entries; no matrix is one run", () => {
    expect(expandMatrix({ include: [{ site: "a" }, { site: "b" }] })).toEqual([{ site: "a" }, { site: "b" }]);
    expect(expandMatrix(undefined)).toEqual([{}]);
  });
});
