import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { InputError } from "./input-error.js";

// Where a step writes its files (fetch-logs' output-file, usage-report's output-dir): made or
// opened before anything is sent, so a path that cannot be written is a bad input that names
// itself, not a crash or an "unexpected error" after the platform was asked.

const unwritable = (input: string, path: string, error: unknown) =>
  new InputError(
    input,
    `cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): ${path}`,
  );

/** Makes the directory (and its parents). */
export async function outputDir(dir: string, input: string): Promise<void> {
  try {
    await makeDirectory(resolve(dir));
  } catch (error) {
    throw unwritable(input, dir, error);
  }
}

/**
 * `mkdir -p`, a level at a time. Node's `mkdir(…, { recursive: true })` never returns where a
 * file system says a directory's parent is missing while it exists (under /proc: ENOENT for ever),
 * and the step would hang there; here each level is tried once and the first refusal is the error.
 */
async function makeDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST" && (await stat(dir)).isDirectory()) return;
    const parent = dirname(dir);
    if (code !== "ENOENT" || parent === dir) throw error;
    await makeDirectory(parent);
    await mkdir(dir);
  }
}

/** A file being written, and a promise that rejects with its first write error (a full disk). */
export interface OutputFile {
  stream: WriteStream;
  failed: Promise<never>;
}

/**
 * Rejects with a stream's first error. Await it beside every wait for the stream ('drain',
 * 'finish'): an error between waits would otherwise be an unhandled 'error' event, a crash.
 */
export function streamFailure(stream: WriteStream): Promise<never> {
  const failed = new Promise<never>((_, reject) => stream.once("error", reject));
  // Awaited where it matters; never an unhandled rejection meanwhile.
  failed.catch(() => {});
  return failed;
}

/** Opens the file for writing; waits for it to be open. */
export async function outputFile(path: string, input: string): Promise<OutputFile> {
  const stream = createWriteStream(path, { encoding: "utf8" });
  const failed = streamFailure(stream);
  try {
    await Promise.race([once(stream, "open"), failed]);
  } catch (error) {
    throw unwritable(input, path, error);
  }
  return { stream, failed };
}
