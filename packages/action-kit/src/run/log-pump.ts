import * as core from "@actions/core";
import type { LogFollower } from "@cwp/client";
import { lineText, printUntrusted } from "../output/untrusted.js";

const INTERVAL_MS = 2000;
const KEEP_LAST = 20;
const MAX_DRAIN_PAGES = 50;

/**
 * Streams remote log lines while the action waits, inside one collapsible group, every line
 * inside a stop-commands block. Logs are best-effort: a failed read is reported once as a warning
 * and never fails the step.
 */
export class LogPump {
  readonly last: string[] = [];
  #timer: NodeJS.Timeout | undefined;
  #reading: Promise<number> = Promise.resolve(0);
  #warned = false;
  #grouped = false;

  constructor(
    private readonly follower: LogFollower,
    private readonly title: string,
  ) {}

  start(): void {
    const tick = () => {
      this.#reading = this.#read().finally(() => {
        if (this.#timer) this.#timer = setTimeout(tick, INTERVAL_MS);
      });
    };
    this.#timer = setTimeout(tick, 0);
  }

  /** Stops streaming, then reads what is left after the conclusion. */
  async drain(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#reading;
    for (let i = 0; i < MAX_DRAIN_PAGES; i += 1) if ((await this.#read()) === 0) break;
    if (this.#grouped) core.endGroup();
  }

  async #read(): Promise<number> {
    try {
      const lines = (await this.follower.next()).map(lineText);
      if (lines.length === 0) return 0;
      if (!this.#grouped) {
        core.startGroup(this.title);
        this.#grouped = true;
      }
      printUntrusted(lines);
      this.last.push(...lines);
      this.last.splice(0, Math.max(0, this.last.length - KEEP_LAST));
      return lines.length;
    } catch (error) {
      if (!this.#warned)
        core.warning(`Could not read the logs (the step goes on): ${(error as Error).message}`);
      this.#warned = true;
      return 0;
    }
  }
}
