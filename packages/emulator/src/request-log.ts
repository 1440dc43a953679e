// The requests the platform API answered, as `/_emulator/requests` shows them: the last ones only,
// so a long-running emulator does not grow.

export interface RequestLogEntry {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  body?: unknown;
  status: number;
  time: string;
  /** Bytes of the answer (head and body) handed to the connection. */
  bytes: number;
}

/** How many requests the log keeps by default. */
export const REQUEST_LOG_SIZE = 10_000;

export class RequestLog {
  #entries: RequestLogEntry[] = [];

  constructor(readonly size = REQUEST_LOG_SIZE) {}

  add(entry: RequestLogEntry): void {
    // The oldest tenth goes at once, not one entry a request.
    if (this.#entries.length >= this.size * 1.1) this.#entries.splice(0, this.#entries.length - this.size);
    this.#entries.push(entry);
  }

  /** The last `size` requests, oldest first. */
  entries(): RequestLogEntry[] {
    return this.#entries.slice(-this.size);
  }

  clear(): void {
    this.#entries = [];
  }
}
