import * as core from "@actions/core";
import type { LogFollower, LogLine } from "@cwp/client";
import { lineText, printUntrusted, say, warn } from "../output/untrusted.js";

const KEEP_LAST = 20;

/**
 * Streams remote log lines while the action waits (paced by the follower, see
 * `LogFollower.stream`), inside one collapsible group, every line inside a stop-commands block.
 * Logs are best-effort: a failed read is reported once as a warning and never fails the step, and
 * reading them never holds the step: a stop ends the read under way.
 */
export class LogPump {
  readonly last: string[] = [];
  readonly #stop = new AbortController();
  #streaming: Promise<void> = Promise.resolve();
  #warned = false;
  #grouped = false;

  constructor(
    private readonly follower: LogFollower,
    private readonly title: string,
  ) {}

  start(): void {
    this.#streaming = this.follower.stream({
      signal: this.#stop.signal,
      onLines: (lines) => this.#print(lines),
      onError: (error) => this.#warn(error),
    });
  }

  /** Stops streaming, and the read under way with it. */
  stop(): void {
    this.#stop.abort();
  }

  /** Stops streaming, then reads what is left for at most `withinMs`. */
  async drain(withinMs: number): Promise<void> {
    this.stop();
    await this.#streaming;
    if (withinMs > 0) {
      const signal = AbortSignal.timeout(withinMs);
      try {
        for (;;) {
          const lines = await this.follower.next(signal);
          if (lines.length === 0) break;
          this.#print(lines);
        }
      } catch (error) {
        if (!signal.aborted) this.#warn(error);
        else say(`(Stopped reading the logs after ${withinMs} ms; the rest are on the platform.)`);
      }
    }
    if (this.#grouped) core.endGroup();
  }

  #print(batch: LogLine[]): void {
    const lines = batch.map(lineText);
    if (!this.#grouped) {
      core.startGroup(this.title);
      this.#grouped = true;
    }
    printUntrusted(lines);
    this.last.push(...lines);
    this.last.splice(0, Math.max(0, this.last.length - KEEP_LAST));
  }

  #warn(error: unknown): void {
    if (!this.#warned) warn(`Could not read the logs (the step goes on): ${(error as Error).message}`);
    this.#warned = true;
  }
}
