import { EventEmitter } from "node:events";

/**
 * What stops one attempt: the caller's signal aborting, or the attempt's time running out; `clear()`
 * ends both once the attempt is over.
 *
 * undici takes an EventEmitter as a request's `signal` (its documented alternative to an
 * AbortSignal) and stops the request when it emits `abort`. An AbortSignal per attempt cost more
 * than all the client's own work on a loopback request (`AbortSignal.timeout` and `AbortSignal.any`
 * a third of its throughput, an AbortController's signal about a tenth, in undici's and Node's
 * listener machinery); an emitter costs next to nothing (bench/README, client-overhead).
 */
export class AttemptSignal {
  /** What undici listens to. */
  readonly emitter = new EventEmitter();
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #outer: AbortSignal | undefined;
  #timedOut = false;

  constructor(ms: number, outer: AbortSignal | undefined) {
    this.#outer = outer;
    if (Number.isFinite(ms)) {
      this.#timer = setTimeout(
        () => {
          this.#timedOut = true;
          this.#abort();
        },
        Math.max(1, Math.ceil(ms)),
      );
    }
    outer?.addEventListener("abort", this.#abort, { once: true });
  }

  /** Whether the attempt's time ran out (rather than the caller aborting). */
  get timedOut(): boolean {
    return this.#timedOut;
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#outer?.removeEventListener("abort", this.#abort);
  }

  readonly #abort = () => {
    this.emitter.emit("abort");
  };
}
