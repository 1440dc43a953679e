/**
 * Virtual time: real time scaled by `speed`, plus manual advances, so a ten-minute build can take
 * milliseconds in a test. Everything in the emulator that has a time reads it from here.
 */
export class VirtualClock {
  #origin = Date.now();
  #advancedMs: number;

  /** `startAt` (epoch ms) sets where virtual time begins: a fixed start makes billing reproducible. */
  constructor(
    readonly speed = 1,
    startAt?: number,
  ) {
    this.#advancedMs = startAt === undefined ? 0 : startAt - this.#origin;
  }

  now(): number {
    return this.#origin + (Date.now() - this.#origin) * this.speed + this.#advancedMs;
  }

  advance(seconds: number): void {
    this.#advancedMs += seconds * 1000;
  }
}
