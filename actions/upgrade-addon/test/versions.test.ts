import { describe, expect, it } from "vitest";
import { isOlder } from "../src/versions.js";

describe("isOlder", () => {
  it.each([
    ["15.7", "16.4", true],
    ["16.4", "16.10", true],
    ["16.10", "16.4", false],
    ["17.0", "16.4", false],
    ["16.4", "16.4", false],
    ["16", "16.0", false],
    ["7.2.4", "7.2.5", true],
    ["v1.9", "v1.10", true],
    ["7.2-alpine", "7.4-alpine", true],
    // No number to compare: never called older.
    ["latest", "16.4", false],
    ["15.7", "stable", false],
  ])("%s against %s: %s", (target, current, older) => {
    expect(isOlder(target, current)).toBe(older);
  });
});
