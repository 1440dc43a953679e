import * as core from "@actions/core";
import type { LogFollower, LogLine } from "@cwp/client";
import { lineText, printUntrusted } from "../output/untrusted.js";

const KEEP_LAST = 20;
const MAX_DRAIN_PAGES = 50;

/**
 * Streams remote log lines while the action waits (paced by the follower, see
 * `LogFollower.stream`), inside one collapsible group, every line inside a stop-commands block.
 * Logs are best-effort: a failed read is reported once as a warning and never fails the step.
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

  /** Stops streaming, then reads what is left after the conclusion. */
  async drain(): Promise<void> {
    this.#stop.abort();
    await this.#streaming;
    for (let i = 0; i < MAX_DRAIN_PAGES; i += 1) {
      try {
        const lines = await this.follower.next();
        if (lines.length === 0) break;
        this.#print(lines);
      } catch (error) {
        this.#warn(error);
        break;
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
    if (!this.#warned)
      core.warning(`Could not read the logs (the step goes on): ${(error as Error).message}`);
    this.#warned = true;
  }
}
