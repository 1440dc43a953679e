import { describe, expect, it } from "vitest";
import { evaluate } from "../src/expressions.js";

// The rehearsal's expressions: what it does not know it refuses, and a missing property is null,
// as GitHub reads it, never a member every JavaScript object has.

const status = { success: () => true, failure: () => false, always: () => true, cancelled: () => false };
const contexts = { github: { event: { number: 42, pull_request: { head: { sha: "abc" } } } }, inputs: {} };

describe("rehearsal expressions", () => {
  it("reads a property the value does not have as null, also one named like an object's member", () => {
    expect(evaluate("github.event.missing", contexts, status)).toBeNull();
    expect(evaluate("github.event.constructor", contexts, status)).toBeNull();
    expect(evaluate("github.event.__proto__", contexts, status)).toBeNull();
    expect(evaluate("github.event.pull_request.head.sha", contexts, status)).toBe("abc");
    expect(evaluate("github.event.constructor == null", contexts, status)).toBe(true);
  });

  it("refuses a function it does not know, object members included, and a context it does not have", () => {
    expect(() => evaluate("toString()", contexts, status)).toThrow(/no function toString\(\)/);
    expect(() => evaluate("hasOwnProperty()", contexts, status)).toThrow(/no function hasOwnProperty\(\)/);
    expect(() => evaluate("format()", contexts, status)).toThrow(/no function format\(\)/);
    expect(() => evaluate("constructor.name", contexts, status)).toThrow(/no context constructor/);
    expect(evaluate("success() && always()", contexts, status)).toBe(true);
  });
});
