import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";

// A report file written line by line while the usage is read: lines are gathered into large
// writes, the disk's pace is waited for, and the file gets its name only once it is complete
// (until then it is NAME.partial, removed when the report fails).

const FLUSH_AT = 1 << 20;

export class LineFile {
  readonly #out: WriteStream;
  #pending = "";

  private constructor(
    readonly path: string,
    private readonly partial: string,
  ) {
    this.#out = createWriteStream(partial, { encoding: "utf8" });
  }

  static open(path: string): LineFile {
    return new LineFile(path, `${path}.partial`);
  }

  async write(text: string): Promise<void> {
    this.#pending += text;
    if (this.#pending.length >= FLUSH_AT) await this.#flush();
  }

  async writeAll(lines: Iterable<string>): Promise<void> {
    for (const line of lines) await this.write(line);
  }

  /** Writes what is left and gives the file its name. */
  async close(): Promise<void> {
    await this.#flush();
    this.#out.end();
    await once(this.#out, "finish");
    await rename(this.partial, this.path);
  }

  /** For a report that failed: no half file is left where a whole one is expected. */
  async discard(): Promise<void> {
    this.#out.destroy();
    await rm(this.partial, { force: true });
  }

  async #flush(): Promise<void> {
    const text = this.#pending;
    this.#pending = "";
    if (text && !this.#out.write(text)) await once(this.#out, "drain");
  }
}
