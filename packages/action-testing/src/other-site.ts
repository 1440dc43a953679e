import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A site on loopback that answers every request the same way: another product's web page or JSON
 * API, where a user's API URL may point by mistake.
 */
export async function startOtherSite(
  status: number,
  headers: Record<string, string>,
  body: string,
): Promise<{ url: string; close(): void }> {
  const site = createServer((req, res) => {
    req.resume();
    res.writeHead(status, headers).end(body);
  });
  site.listen(0, "127.0.0.1");
  await once(site, "listening");
  return { url: `http://127.0.0.1:${(site.address() as AddressInfo).port}`, close: () => site.close() };
}
