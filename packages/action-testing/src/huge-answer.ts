import type { ServerResponse } from "node:http";

const MB = 1024 * 1024;

/**
 * Answers 200 with `head`, then `megabytes` of `fill` as fast as the reader takes them (no length
 * declared), then `tail`: what a hostile or broken platform may send, to show a reader bounds it.
 */
export function sendHugeAnswer(
  res: ServerResponse,
  {
    head = "",
    tail = "",
    fill = " ",
    megabytes = 1536,
  }: { head?: string; tail?: string; fill?: string; megabytes?: number },
): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.write(head);
  const chunk = Buffer.alloc(MB, fill);
  let sent = 0;
  const more = () => {
    while (sent < megabytes && res.write(chunk)) sent += 1;
    if (sent >= megabytes) res.end(tail);
  };
  res.on("drain", more);
  res.on("close", () => res.off("drain", more));
  more();
}
