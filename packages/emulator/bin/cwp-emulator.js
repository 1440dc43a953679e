#!/usr/bin/env node
// cwp-emulator [--host 127.0.0.1] [--port 4010] [--seed N] [--speed X] [--rate-limit N]
//              [--scale TEAMSxPROJECTSxRESOURCES] [--log-page-cap N]
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
    scale: { type: "string" },
    "log-page-cap": { type: "string" },
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
const scale = values.scale === undefined ? undefined : /^(\d+)x(\d+)x(\d+)$/.exec(values.scale);
if (scale === null) {
  console.error(
    `cwp-emulator: --scale must be TEAMSxPROJECTSxRESOURCES, e.g. 50x20x50 (got ${JSON.stringify(values.scale)})`,
  );
  process.exit(2);
}
const emulator = await startEmulator({
  ...(scale
    ? {
        scale: {
          teams: Number(scale[1]),
          projectsPerTeam: Number(scale[2]),
          resourcesPerProject: Number(scale[3]),
        },
      }
    : {}),
  host: values.host,
  port: number("port", values.port),
  seed: number("seed", values.seed),
  speed: number("speed", values.speed),
  rateLimit: number("rate-limit", values["rate-limit"]),
  ...(values["log-page-cap"] !== undefined
    ? { logPageCap: Math.max(1, Math.floor(number("log-page-cap", values["log-page-cap"]))) }
    : {}),
});
console.log(`cwp-emulator listening on ${emulator.url}`);
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => emulator.close().then(() => process.exit(0)));
