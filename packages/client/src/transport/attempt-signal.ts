import { EventEmitter } from "node:events";
import { type Expiring, unwatch, watch } from "./expiry-watch.js";

/**
 * What stops one attempt, as the EventEmitter undici listens to: the caller's signal aborting, or
 * the attempt's time running out; `clear()` ends both once the attempt is over.
 *
 * undici takes an EventEmitter as a request's `signal` (its documented alternative to an
 * AbortSignal) and stops the request when it emits `abort`. An AbortSignal per attempt cost more
 * than all the client's own work on a loopback request (`AbortSignal.timeout` and `AbortSignal.any`
 * a third of its throughput, an AbortController's signal about a tenth, in undici's and Node's
 * listener machinery); an emitter costs next to nothing (bench/README, client-overhead). The time
 * limit is kept by one timer for all attempts (`expiry-watch.ts`).
 */
export class AttemptSignal extends EventEmitter implements Expiring {
  readonly expiresAt: number;
  readonly #outer: AbortSignal | undefined;
  /** Made only when there is a caller's signal to follow: most attempts have none. */
  readonly #onOuterAbort: (() => void) | undefined;
  #timedOut = false;

  constructor(ms: number, outer: AbortSignal | undefined) {
    super();
    this.expiresAt = performance.now() + Math.max(1, Math.ceil(ms));
    if (Number.isFinite(ms)) watch(this);
    this.#outer = outer;
    if (outer) {
      this.#onOuterAbort = () => this.emit("abort");
      outer.addEventListener("abort", this.#onOuterAbort, { once: true });
    }
  }

  /** Whether the attempt's time ran out (rather than the caller aborting). */
  get timedOut(): boolean {
    return this.#timedOut;
  }

  expire(): void {
    this.#timedOut = true;
    this.emit("abort");
  }

  clear(): void {
    unwatch(this);
    if (this.#onOuterAbort) this.#outer?.removeEventListener("abort", this.#onOuterAbort);
  }
}
