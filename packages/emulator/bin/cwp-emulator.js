#!/usr/bin/env node
// cwp-emulator [--host 127.0.0.1] [--port 4010] [--seed N] [--speed X] [--rate-limit N]
// The first line of standard output is "cwp-emulator listening on http://HOST:PORT".
import { parseArgs } from "node:util";
import { startEmulator } from "../dist/index.js";

const { values } = parseArgs({
  options: {
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "4010" },
    seed: { type: "string", default: "1" },
    speed: { type: "string", default: "1" },
    "rate-limit": { type: "string", default: "1000" },
  },
});
const number = (name, value) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`cwp-emulator: --${name} must be a number, 0 or more (got ${JSON.stringify(value)})`);
    process.exit(2);
  }
  return n;
};
const emulator = await startEmulator({
  host: values.host,
  port: number("port", values.port),
  seed: number("seed", values.seed),
  speed: number("speed", values.speed),
  rateLimit: number("rate-limit", values["rate-limit"]),
});
console.log(`cwp-emulator listening on ${emulator.url}`);
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => emulator.close().then(() => process.exit(0)));
