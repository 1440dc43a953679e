import type { LogFollower, LogLine } from "@cwp/client";
import { host, say, warn } from "./host.js";
import { redact } from "./secrets.js";

const KEEP_LAST = 20;

/** The text of a log line, whatever shape the platform gave it. */
export const lineText = (line: LogLine) =>
  typeof line.log === "string" ? line.log : JSON.stringify(line.log);

/**
 * Streams remote log lines while the action waits (paced by the follower, see
 * `LogFollower.stream`) to the host, which prints them so that no line can act. Logs are
 * best-effort: a failed read is reported once as a warning and never fails the step, and reading
 * them never holds the step: a stop ends the read under way.
 */
export class LogPump {
  readonly last: string[] = [];
  readonly #stop = new AbortController();
  #streaming: Promise<void> = Promise.resolve();
  #warned = false;
  #printed = false;

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
    if (this.#printed) host().endLogs();
  }

  #print(batch: LogLine[]): void {
    const lines = batch.map((line) => redact(lineText(line)));
    host().logLines(
      this.title,
      batch.map((line, i) => ({ ts: line.ts, text: lines[i] as string })),
    );
    this.#printed = true;
    this.last.push(...lines);
    this.last.splice(0, Math.max(0, this.last.length - KEEP_LAST));
  }

  #warn(error: unknown): void {
    if (!this.#warned) warn(`Could not read the logs (the wait goes on): ${(error as Error).message}`);
    this.#warned = true;
  }
}
