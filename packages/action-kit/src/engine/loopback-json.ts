import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";

// A GET of a small JSON answer from an emulator on this machine (its control plane), with Node's
// own http client: global `fetch` loads Node's built-in undici at its first use, 50-90 ms of CPU in
// a process that has its HTTP client already (the client's undici, which loads node:http).

/**
 * The JSON `url` answers with a 2xx status, or undefined: another status, no whole answer within
 * `timeoutMs`, more than `maxBytes` (not read further), or text that is no JSON.
 */
export function getJson(url: URL, limits: { timeoutMs: number; maxBytes: number }): Promise<unknown> {
  return new Promise((resolve) => {
    const get = url.protocol === "https:" ? httpsGet : httpGet;
    const request = get(url, (response) => {
      if ((response.statusCode ?? 0) < 200 || (response.statusCode ?? 0) > 299) return done(undefined);
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) done(undefined);
        else chunks.push(chunk);
      });
      response.on("end", () => {
        try {
          done(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        } catch {
          done(undefined);
        }
      });
    });
    const timer = setTimeout(() => done(undefined), limits.timeoutMs);
    function done(value: unknown) {
      clearTimeout(timer);
      request.destroy();
      resolve(value);
    }
    request.on("error", () => done(undefined));
  });
}
