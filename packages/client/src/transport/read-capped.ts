import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import { type CwpErrorInit, UnexpectedResponseError } from "./errors.js";

/**
 * The most a whole-body answer (a status read, a page, an error) may hold. Beyond it the request
 * fails at once and is not retried: a 1.5 GB answer to a status read must not take the step's
 * memory with it. Reads that stream (usage lists) fold their bodies as they arrive instead.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** "answered 200 with an answer too large (2 GB; one answer may hold 32 MB)"; `what` may be a part. */
export function tooLargeError(
  at: CwpErrorInit & { status: number },
  size: string,
  what = "answer",
): UnexpectedResponseError {
  return new UnexpectedResponseError(
    `${at.method} ${at.path} answered ${at.status} with ${/^[aeiou]/.test(what) ? "an" : "a"} ${what} too large (${size}; one ${what} may hold ${megabytes(MAX_ANSWER_BYTES)})`,
    at,
  );
}

/**
 * The body as text, read until `MAX_ANSWER_BYTES` at most.
 *
 * An answer without a declared length (chunked) is counted from its `data` events: reading it with
 * `for await` cost the client a tenth of its loopback throughput (an async iterator, its promises
 * and end-of-stream watch per answer, bench/README).
 */
export function readCapped(
  body: Readable & { text(): Promise<string> },
  headers: IncomingHttpHeaders,
  at: CwpErrorInit & { status: number },
): Promise<string> {
  const tooLarge = (size: string) => {
    body.destroy();
    return tooLargeError(at, size);
  };
  const declared = Number(headers["content-length"] ?? Number.NaN);
  if (declared > MAX_ANSWER_BYTES) return Promise.reject(tooLarge(megabytes(declared)));
  // A declared length bounds the body (HTTP ends it there): read it whole, undici's way.
  if (declared >= 0) return body.text();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_ANSWER_BYTES) reject(tooLarge(`over ${megabytes(MAX_ANSWER_BYTES)}`));
      else chunks.push(chunk);
    });
    body.once("end", () =>
      // Most answers arrive in one chunk: copying it into a new buffer first was a fifth of the read.
      resolve((chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)).toString("utf8")),
    );
    body.once("error", reject);
  });
}
