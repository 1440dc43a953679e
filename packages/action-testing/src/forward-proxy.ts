import { once } from "node:events";
import { createServer, request as httpRequest } from "node:http";
import { type AddressInfo, connect } from "node:net";

/** A forward proxy on loopback, and what it carried: `CONNECT host:port` tunnels and plain requests. */
export interface ForwardProxy {
  url: string;
  seen: string[];
  close(): void;
}

/**
 * Starts a forward proxy. With `to`, it carries every request there whatever host it names: a
 * name that only the proxy knows shows that a request went through it.
 */
export async function startForwardProxy(to?: { host: string; port: number }): Promise<ForwardProxy> {
  const seen: string[] = [];
  const proxy = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? "");
    const upstream = httpRequest(
      {
        host: to?.host ?? target.hostname,
        port: to?.port ?? target.port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  proxy.on("connect", (req, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host = "", port = ""] = (req.url ?? "").split(":");
    const upstream = connect(to?.port ?? Number(port), to?.host ?? host, () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
  });
  proxy.listen(0, "127.0.0.1");
  await once(proxy, "listening");
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen,
    close: () => proxy.close(),
  };
}
