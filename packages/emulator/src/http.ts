import type { IncomingMessage, ServerResponse } from "node:http";

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

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
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
