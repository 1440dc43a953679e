import { type LogFollower, type LogLine, TimeoutError } from "@cwp/client";
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
  #wake: (() => void) | undefined;

  constructor(
    private readonly follower: LogFollower,
    private readonly title: string,
  ) {}

  start(): void {
    this.#streaming = this.follower.stream({
      signal: this.#stop.signal,
      onLines: (lines) => this.#print(lines),
      onError: (error) => this.#warn(error),
      onWake: (wake) => {
        this.#wake = wake;
      },
    });
  }

  /** Reads now: the work's status changed, and a new stage writes lines (a build's first, cloning). */
  wake(): void {
    this.#wake?.();
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
        // Out of time (the drain's own, or the step's deadline): the rest stay on the platform.
        if (!signal.aborted && !(error instanceof TimeoutError)) this.#warn(error, "after the wait");
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

  /** Once per step; a read after the wait (the drain) does not say the wait goes on: it is over. */
  #warn(error: unknown, when: "while waiting" | "after the wait" = "while waiting"): void {
    const said = when === "while waiting" ? "(the wait goes on)" : "left after the wait";
    if (!this.#warned) warn(`Could not read the logs ${said}: ${(error as Error).message}`);
    this.#warned = true;
  }
}
