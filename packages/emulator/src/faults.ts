import { z } from "zod";
import { rewriteSchema } from "./answer-rewrite.js";

// Faults injected through POST /_emulator/faults, matched by method and path, each used `times`
// times. `after: true` lets the request act first and then answers with the fault: the work was
// done but the caller cannot know (the case of an ambiguous start).

export const faultSchema = z.strictObject({
  method: z.enum(["GET", "POST", "DELETE", "PUT", "PATCH"]).optional(),
  /** The request path exactly, or a prefix ending in `*`. */
  path: z.string().min(1),
  status: z.number().int().min(200).max(599).optional(),
  body: z.unknown().optional(),
  // What HTTP can carry: a header it cannot would end the emulator's process when answered.
  headers: z
    .record(
      z
        .string()
        .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "a header name is letters, digits and !#$%&'*+.^_`|~-"),
      z
        .string()
        .regex(
          /^[\t\x20-\x7e\x80-\xff]*$/,
          "a header value has no line breaks or control characters, only Latin-1",
        ),
    )
    .optional(),
  delayMs: z.number().min(0).max(120_000).optional(),
  /** Close the connection without an answer. */
  reset: z.boolean().optional(),
  /** Answer 200 with a body that is not JSON. */
  malformed: z.boolean().optional(),
  /** Send the fault's answer one character every this many ms (a body that trickles in). */
  trickleMs: z.number().int().min(1).max(60_000).optional(),
  after: z.boolean().optional(),
  /** Act, then send the real answer changed: members left out or set (see answer-rewrite.ts). */
  rewrite: rewriteSchema.optional(),
  /** Let the real answer start, and close the connection once this many bytes of it were sent. */
  breakAfterBytes: z.number().int().min(0).optional(),
  times: z.number().int().min(1).max(1_000_000).default(1),
  /** Matching requests to let through untouched before the fault starts to act (a read before the start). */
  skip: z.number().int().min(0).max(1_000_000).default(0),
  /**
   * The fault ends when a request matching this arrives (that request is not faulted): reads
   * answered "still running" until the abort, say, and the platform's own answers after it.
   */
  until: z
    .strictObject({
      method: z.enum(["GET", "POST", "DELETE", "PUT", "PATCH"]).optional(),
      path: z.string().min(1),
    })
    .optional(),
});
export type Fault = z.infer<typeof faultSchema>;

export class Faults {
  #faults: Fault[] = [];

  add(fault: Fault): void {
    this.#faults.push(fault);
  }

  /** The first fault matching the request, counted as used; faults that end at this request end. */
  take(method: string, path: string): Fault | undefined {
    this.#faults = this.#faults.filter((f) => !(f.until && matches(f.until, method, path)));
    const fault = this.#faults.find((f) => matches(f, method, path));
    if (!fault) return undefined;
    if (fault.skip > 0) {
      fault.skip -= 1;
      return undefined;
    }
    fault.times -= 1;
    if (fault.times <= 0) this.#faults = this.#faults.filter((f) => f !== fault);
    return fault;
  }

  list(): Fault[] {
    return [...this.#faults];
  }

  clear(): void {
    this.#faults = [];
  }
}

/** Whether a request is the one a method (any when none) and a path (a prefix ending in `*`) name. */
function matches(at: { method?: string | undefined; path: string }, method: string, path: string): boolean {
  return (
    (at.method === undefined || at.method === method) &&
    (at.path.endsWith("*") ? path.startsWith(at.path.slice(0, -1)) : at.path === path)
  );
}
