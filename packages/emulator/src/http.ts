import type { IncomingMessage, ServerResponse } from "node:http";
import { setImmediate } from "node:timers/promises";

export const MAX_BODY_BYTES = 1024 * 1024;

/** A failure answered with the platform's error body (beyond-the-seed §2). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

let errorCounter = 0;

/**
 * An array written item by item: its items are made as they are written and dropped after, so an
 * answer of any size the spec allows (a page of 100 days of a large organisation) is sent with
 * the memory of one item. Items may hold streamed arrays of their own.
 */
export class StreamedArray {
  constructor(readonly items: Iterable<unknown>) {}
}

/** JSON written as it is (an item of a streamed array that was written by hand, for speed). */
export class RawJson {
  constructor(readonly json: string | Uint8Array) {}
}

/** What a streamed array is written as first, to be found in the text and replaced by its items. */
const MARK = "\u0000cwp-emulator-streamed-array\u0000";
const MARK_TEXT = JSON.stringify(MARK);

const AHEAD_BYTES = 32 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

/** A value's JSON text split where its streamed arrays go, and those arrays, in order. */
function marked(value: unknown): { parts: string[]; arrays: StreamedArray[] } {
  const arrays: StreamedArray[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof StreamedArray)) return v;
    arrays.push(v);
    return MARK;
  });
  return { parts: text.split(MARK_TEXT), arrays };
}

/**
 * Sends an answer: whole, with its length, or, when it holds streamed arrays, chunked as its items
 * are made, waiting whenever the client is far behind.
 */
export async function sendAnswer(res: ServerResponse, status: number, body: unknown): Promise<void> {
  const whole = marked(body);
  if (whole.arrays.length === 0) return sendText(res, status, whole.parts.join(""));
  res.writeHead(status, { "content-type": "application/json" });
  // Written a chunk of about CHUNK_BYTES at a time, not an item at a time: a page of a year's
  // hours was some hundred thousand writes of a few bytes (each a chunk of its own on the socket),
  // a tenth of a year's export's time.
  let pending: Array<string | Uint8Array> = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (res.destroyed) throw new Error("the client hung up");
    if (pending.length === 0) return;
    const chunk = pending.every((p) => typeof p === "string")
      ? pending.join("")
      : Buffer.concat(pending.map((p) => (typeof p === "string" ? Buffer.from(p) : p)));
    pending = [];
    pendingBytes = 0;
    // Up to AHEAD_BYTES are made before the client reads them: a client busy with one large item
    // finds the next ready, as it would from the platform, instead of waiting for it to be made.
    res.write(chunk);
    // A turn of the event loop after each chunk: the socket sends what was written while the next
    // one is made. Without it a whole read-ahead is made before its first byte leaves, and the
    // client waits, then the emulator does.
    await setImmediate();
    if (res.writableLength <= AHEAD_BYTES) return;
    await new Promise<void>((resolve) => {
      const go = () => {
        res.off("drain", go);
        res.off("close", go);
        resolve();
      };
      res.on("drain", go);
      res.on("close", go);
    });
  };
  const write = async (text: string | Uint8Array) => {
    pending.push(text);
    pendingBytes += typeof text === "string" ? text.length : text.byteLength;
    if (pendingBytes >= CHUNK_BYTES) await flush();
  };
  const writeMarked = async ({ parts, arrays }: { parts: string[]; arrays: StreamedArray[] }) => {
    for (const [i, part] of parts.entries()) {
      await write(part);
      const array = arrays[i];
      if (!array) continue;
      await write("[");
      let first = true;
      for (const item of array.items) {
        if (!first) await write(",");
        first = false;
        await (item instanceof RawJson ? write(item.json) : writeMarked(marked(item)));
      }
      await write("]");
    }
  };
  await writeMarked(whole);
  await flush();
  res.end();
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, JSON.stringify(body));
}

export function sendFailure(res: ServerResponse, failure: ApiFailure): void {
  errorCounter += 1;
  sendJson(res, failure.status, {
    error: {
      status: failure.status,
      message: failure.message,
      id: `err_${errorCounter.toString(36).padStart(6, "0")}`,
      details: failure.details,
    },
  });
}

/** The request body as JSON: 413 over 1 MiB, 415 for another content type, 400 for bad JSON. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ApiFailure(413, "request body is larger than 1 MiB");
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  const type = req.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type))
    throw new ApiFailure(415, "request bodies are JSON (Content-Type: application/json)");
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new ApiFailure(400, "request body is not valid JSON");
  }
}
