import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import { MAX_ANSWER_BYTES, megabytes, tooLargeError } from "./answer-size.js";
import type { CwpErrorInit } from "./errors.js";
import { type Expiring, unwatch, watch } from "./expiry-watch.js";

/** An answer: its body as text when read whole, or what `readBody` made of it. */
export type Answer = { status: number; headers: IncomingHttpHeaders } & (
  | { text: string; read?: undefined }
  | { text?: undefined; read: { value: unknown } }
);

export interface AttemptOptions {
  /** The attempt's whole time, ms: it settles within it, whatever undici is doing. */
  ms: number;
  /** The caller's: aborting it stops the attempt at once. */
  signal: AbortSignal | undefined;
  /** For the too-large error: which request. */
  at: CwpErrorInit;
  /** Called as soon as the headers arrive (the rate-limit budget is read from them). */
  onHeaders: (headers: IncomingHttpHeaders) => void;
  /** Reads a 2xx body as it arrives (see `RequestSpec.readBody`); other answers are read whole. */
  readBody: ((body: AsyncIterable<Uint8Array>) => Promise<unknown>) | undefined;
}

/**
 * One attempt of a request, as a handler of undici's dispatch API: it gathers the body itself
 * (or hands it to `readBody` as it arrives) and stops the request with undici's controller.
 *
 * `request()` with a signal cost the client about a tenth of its loopback throughput in undici's
 * machinery alone (the signal's listeners, the body stream and its events), more than all the
 * client's own work; a whole answer here passes through none of it (bench/README, client-overhead).
 *
 * The attempt ends within `ms` of being made (one timer keeps the limits of all attempts,
 * `expiry-watch.ts`), at once when the caller's signal aborts, and as soon as a whole answer passes
 * `MAX_ANSWER_BYTES`; each of these also stops the request in undici. A body handed to `readBody`
 * ends the attempt only when `readBody` returns: a retry must not start while it still delivers.
 */
export class Attempt implements Dispatcher.DispatchHandler, Expiring {
  readonly expiresAt: number;
  readonly answer: Promise<Answer>;
  /** Whether the platform answered: a status came back, so the request reached it. */
  responded = false;
  /** Whether the attempt's time ran out (rather than the caller aborting). */
  timedOut = false;
  readonly #options: AttemptOptions;
  #resolve!: (answer: Answer) => void;
  #reject!: (error: unknown) => void;
  #settled = false;
  #controller: Dispatcher.DispatchController | undefined;
  /** Why the attempt was stopped before undici started it: the request stops as it starts. */
  #stoppedWith: Error | undefined;
  readonly #onOuterAbort: (() => void) | undefined;
  #status = 0;
  #headers: IncomingHttpHeaders = {};
  #chunks: Buffer[] = [];
  #size = 0;
  /** The body handed to `readBody`, while it reads. */
  #stream: Readable | undefined;

  constructor(options: AttemptOptions) {
    this.#options = options;
    this.answer = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.expiresAt = performance.now() + Math.max(1, Math.ceil(options.ms));
    if (Number.isFinite(options.ms)) watch(this);
    if (options.signal) {
      this.#onOuterAbort = () => this.#stop(new Error("the attempt was aborted"));
      options.signal.addEventListener("abort", this.#onOuterAbort, { once: true });
    }
  }

  /** Whether undici began sending on a connection: before that, no connection had been made. */
  get connected(): boolean {
    return this.#controller !== undefined;
  }

  expire(): void {
    this.timedOut = true;
    this.#stop(new Error("the attempt's time ran out"));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.#stoppedWith) controller.abort(this.#stoppedWith);
    else this.#controller = controller;
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: IncomingHttpHeaders,
  ): void {
    // An informational answer (100 Continue) comes before the real one.
    if (status < 200 || this.#settled) return;
    this.responded = true;
    this.#status = status;
    this.#headers = headers;
    this.#options.onHeaders(headers);
    const { readBody } = this.#options;
    if (readBody && status < 300) {
      const stream = new Readable({
        read: () => controller.resume(),
        // A reader that stops early (an entry too large, a consumer gone) stops the request: the
        // rest of a 1.5 GB answer is not read for nobody.
        destroy: (error, done) => {
          if (!stream.readableEnded) controller.abort(error ?? new Error("the answer's reader stopped"));
          done(error);
        },
      });
      this.#stream = stream;
      readBody(stream).then(
        (value) => this.#end({ status, headers, read: { value } }),
        (error: unknown) => {
          stream.destroy();
          this.#fail(error);
        },
      );
      return;
    }
    const declared = Number(headers["content-length"] ?? Number.NaN);
    if (declared > MAX_ANSWER_BYTES) this.#stop(this.#tooLarge(megabytes(declared)));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#stream) {
      // Held in undici until `readBody` asks for more: memory holds what it has not read yet.
      if (!this.#stream.push(chunk)) controller.pause();
      return;
    }
    if (this.#settled) return;
    this.#size += chunk.byteLength;
    if (this.#size > MAX_ANSWER_BYTES) this.#stop(this.#tooLarge(`over ${megabytes(MAX_ANSWER_BYTES)}`));
    else this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.#stream) {
      this.#stream.push(null);
      return;
    }
    if (this.#settled) return;
    const chunks = this.#chunks;
    // Most answers arrive in one chunk: copying it into a new buffer first was a fifth of the read.
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.#size);
    this.#end({ status: this.#status, headers: this.#headers, text: body.toString("utf8") });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    // `readBody` sees the failure in its body, and the attempt ends when it returns.
    if (this.#stream) this.#stream.destroy(error);
    else this.#fail(error);
  }

  #tooLarge(size: string) {
    return tooLargeError({ ...this.#options.at, status: this.#status }, size);
  }

  /** Stops the request in undici as soon as it can, and ends the attempt with `reason`. */
  #stop(reason: Error): void {
    if (this.#settled) return;
    if (this.#controller) this.#controller.abort(reason);
    else this.#stoppedWith = reason;
    if (this.#stream) this.#stream.destroy(reason);
    else this.#fail(reason);
  }

  #end(answer: Answer): void {
    if (this.#settle()) this.#resolve(answer);
  }

  #fail(error: unknown): void {
    if (this.#settle()) this.#reject(error);
  }

  /** True the first time: an attempt ends once. */
  #settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.#chunks = [];
    unwatch(this);
    if (this.#onOuterAbort) this.#options.signal?.removeEventListener("abort", this.#onOuterAbort);
    return true;
  }
}
