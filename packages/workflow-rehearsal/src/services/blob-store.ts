import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat, writeFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";

// The signed blob URLs GitHub's Actions services hand out, as the libraries use them through
// Azure's storage client (@azure/storage-blob under @actions/artifact and @actions/cache): a URL
// per blob, `/<account>/<container>/<blob>?sig=...` as the client reads an IP host's URL; Put Blob
// (one body), Put Block (`comp=block&blockid=`) and Put Block List (`comp=blocklist`, the blob
// being the staged blocks in the list's order); and a download (GET). A URL whose signature is not
// the one handed out is refused, as storage refuses it.

/** A file's size in bytes, or -1 where it was never written. */
export const sizeOf = (file: string) =>
  stat(file).then(
    (s) => s.size,
    () => -1,
  );

interface Blob {
  file: string;
  signature: string;
  /** Readable once written whole (a finalized artifact, a committed cache entry). */
  readable: () => boolean;
  staged: Map<string, Buffer>;
}

export class BlobStore {
  readonly #blobs = new Map<string, Blob>();

  constructor(readonly prefix: string) {}

  /** A URL for the blob at `path` (`<container>/<name>`), its bytes kept in `file`. */
  sign(base: string, path: string, file: string, readable: () => boolean): string {
    const known = this.#blobs.get(path);
    const signature = known?.signature ?? randomBytes(16).toString("base64url");
    this.#blobs.set(path, { file, signature, readable, staged: known?.staged ?? new Map() });
    return `${base}${this.prefix}/${path}?sig=${signature}`;
  }

  /** Whether a request is for one of this store's blobs. */
  owns(pathname: string): boolean {
    return pathname.startsWith(`${this.prefix}/`);
  }

  async handle(req: IncomingMessage, res: ServerResponse, address: URL): Promise<void> {
    const blob = this.#blobs.get(address.pathname.slice(this.prefix.length + 1));
    const headers = { "x-ms-request-id": randomBytes(8).toString("hex"), "x-ms-version": "2025-01-05" };
    if (!blob || address.searchParams.get("sig") !== blob.signature) {
      res.writeHead(403, { ...headers, "x-ms-error-code": "AuthenticationFailed" });
      return void res.end();
    }
    if (req.method === "GET") {
      const size = blob.readable() ? await sizeOf(blob.file) : -1;
      if (size < 0) return void res.writeHead(404, { ...headers, "x-ms-error-code": "BlobNotFound" }).end();
      res.writeHead(200, { ...headers, "content-type": "application/octet-stream", "content-length": size });
      return void createReadStream(blob.file).pipe(res);
    }
    if (req.method !== "PUT") return void res.writeHead(405, headers).end();
    const body: Buffer[] = [];
    for await (const chunk of req) body.push(chunk as Buffer);
    const bytes = Buffer.concat(body);
    const comp = address.searchParams.get("comp");
    if (comp === "block") blob.staged.set(address.searchParams.get("blockid") ?? "", bytes);
    else if (comp === "blocklist") {
      const ids = [...bytes.toString("utf8").matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]*)<\//g)].map(
        (m) => m[1] ?? "",
      );
      if (ids.some((id) => !blob.staged.has(id))) {
        res.writeHead(400, { ...headers, "x-ms-error-code": "InvalidBlockList" });
        return void res.end();
      }
      await writeFile(blob.file, Buffer.concat(ids.map((id) => blob.staged.get(id) as Buffer)));
      blob.staged.clear();
    } else await writeFile(blob.file, bytes);
    res.writeHead(201, {
      ...headers,
      etag: `"0x${randomBytes(8).toString("hex")}"`,
      "last-modified": new Date().toUTCString(),
    });
    res.end();
  }
}
