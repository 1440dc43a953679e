// The least a step could do for a report: one Node process that sends every request the report
// made, all at once, and `JSON.parse`s each answer (whole, or entry by entry above 256 MB, which one
// string cannot hold). No checking, no folding, no files. usage-report.ts times it from spawn to
// exit: the floor and more, since it also counts starting Node, the transfer, and the emulator
// making the answers. Where it is above the bound, no step can meet the bound on this machine.
// Run by usage-report.ts: BENCH_URL, BENCH_TOKEN, and per request `BYTES:PATH?QUERY` (the size of
// its answer from the emulator's log: streamed answers have no length).
import { request } from "undici";

const WHOLE_BODY_LIMIT = 256e6;
const url = process.env.BENCH_URL ?? "";
const headers = { authorization: `Bearer ${process.env.BENCH_TOKEN}` };

async function read(sizedPath: string): Promise<void> {
  const at = sizedPath.indexOf(":");
  const res = await request(`${url}${sizedPath.slice(at + 1)}`, { headers });
  if (Number(sizedPath.slice(0, at)) <= WHOLE_BODY_LIMIT) {
    JSON.parse(await res.body.text());
    return;
  }
  // Each usage entry on its own. Loaded only here, so small reports don't pay
  // for the client's code.
  const { JsonArraySplitter } = await import("@cwp/client");
  const splitter = new JsonArraySplitter(["data", "usage"]);
  for await (const chunk of res.body) for (const piece of splitter.write(chunk)) JSON.parse(piece.text);
  JSON.parse(splitter.end());
}

await Promise.all(process.argv.slice(2).map(read));
