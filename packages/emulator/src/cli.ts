import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { EMULATOR_OPTIONS } from "./cli-options.js";
import { bindsBeyondLoopback } from "./control-guard.js";
import { parseWorldFile, type WorldFile, WorldFileError } from "./model/world-file.js";
import { startEmulator } from "./server.js";
import { type PageShape, pageShapes } from "./settings.js";

// The command line of the emulator, shared by its own bin (cwp-emulator) and `cwp emulator`:
//   [--host 127.0.0.1] [--port 4010] [--seed N] [--speed X] [--rate-limit N]
//   [--scale TEAMSxPROJECTSxRESOURCES] [--log-page-cap N] [--page-shape SHAPE] [--start-at ISO]
//   [--world FILE]
// The first line of standard output is "cwp-emulator listening on http://HOST:PORT"; then
// `export CWP_API_URL=...` and `export CWP_API_TOKEN=...` lines, ready to paste.

/** `cwp-emulator --help`: every option, its default and what it does. */
export function emulatorHelp(): string {
  // Two spaces between the longest option and its meaning, so that none runs into it.
  const width = Math.max(...Object.keys(EMULATOR_OPTIONS).map((o) => `--${o} <value>`.length)) + 2;
  const lines = Object.entries(EMULATOR_OPTIONS).map(([option, spec]) => {
    const flag = `--${option} <value>`.padEnd(width);
    return `  ${flag}${spec.description}${"default" in spec ? ` (default: ${spec.default})` : ""}`;
  });
  return [
    "Usage: cwp-emulator [options]",
    "",
    "The Cloud Workload Platform API, in memory, on loopback: for demos, tests and rehearsing workflows.",
    "Prints `cwp-emulator listening on http://HOST:PORT`, then the CWP_API_URL and CWP_API_TOKEN to export.",
    "",
    "Options:",
    ...lines,
    `  ${"-h, --help".padEnd(width)}this help`,
    "",
  ].join("\n");
}

/** Exits with one line: 2 for a wrong option, 1 for what stops it starting. */
function fail(message: string, code = 2): never {
  console.error(`cwp-emulator: ${message}`);
  process.exit(code);
}

function number(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    fail(`--${name} must be a number, 0 or more (got ${JSON.stringify(value)})`);
  return n;
}

function pageShape(value: string): PageShape {
  const shape = pageShapes.find((s) => s === value);
  if (!shape) fail(`--page-shape must be one of ${pageShapes.join(", ")} (got ${JSON.stringify(value)})`);
  return shape;
}

/** The world file's description; a mistake ends the start naming the file and its path in it. */
async function readWorld(file: string): Promise<WorldFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    fail(
      `--world ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  try {
    return parseWorldFile(text);
  } catch (error) {
    if (error instanceof WorldFileError) fail(`--world ${file}: ${error.message}`);
    throw error;
  }
}

/** Starts the emulator from command-line arguments and keeps it running until SIGINT or SIGTERM. */
export async function emulatorMain(args: string[]): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(emulatorHelp());
    return;
  }
  const options = Object.fromEntries(
    Object.entries(EMULATOR_OPTIONS).map(([name, o]) => [
      name,
      { type: o.type, ...("default" in o ? { default: o.default } : {}) },
    ]),
  ) as { [K in keyof typeof EMULATOR_OPTIONS]: { type: "string"; default?: string } };
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({ args, options }));
  } catch (error) {
    fail((error as Error).message);
  }
  const scale = values.scale === undefined ? undefined : /^(\d+)x(\d+)x(\d+)$/.exec(values.scale);
  if (scale === null)
    fail(`--scale must be TEAMSxPROJECTSxRESOURCES, e.g. 50x20x50 (got ${JSON.stringify(values.scale)})`);
  const startAt = values["start-at"] === undefined ? undefined : Date.parse(values["start-at"]);
  if (startAt !== undefined && Number.isNaN(startAt))
    fail(
      `--start-at must be an ISO 8601 time, e.g. 2026-06-15T12:00:00Z (got ${JSON.stringify(values["start-at"])})`,
    );
  const port = number("port", values.port ?? "4010");
  const worldScale = scale
    ? { teams: Number(scale[1]), projectsPerTeam: Number(scale[2]), resourcesPerProject: Number(scale[3]) }
    : undefined;
  const world = values.world === undefined ? undefined : await readWorld(values.world);
  const emulator = await startEmulator({
    ...(startAt !== undefined ? { startAt } : {}),
    ...(worldScale ? { scale: worldScale } : {}),
    host: values.host ?? "127.0.0.1",
    ...(values["control-host"] ? { controlHosts: [values["control-host"]] } : {}),
    port,
    ...(world ? { world } : {}),
    ...(values.seed !== undefined ? { seed: number("seed", values.seed) } : {}),
    speed: number("speed", values.speed ?? "1"),
    rateLimit: number("rate-limit", values["rate-limit"] ?? "1000"),
    pageShape: pageShape(values["page-shape"] ?? "whole"),
    ...(values["log-page-cap"] !== undefined
      ? { logPageCap: Math.max(1, Math.floor(number("log-page-cap", values["log-page-cap"]))) }
      : {}),
  }).catch((error: NodeJS.ErrnoException) => {
    // What only the seeded world can tell (a team the file names that it does not have).
    if (error instanceof WorldFileError) fail(`--world ${values.world}: ${error.message}`);
    if (error.code === "EADDRINUSE")
      fail(`port ${port} is in use; start it on another with --port (--port 0 picks a free one)`, 1);
    throw error;
  });
  // Ready for a stop before saying where it listens: whoever reads that line may stop it at once.
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.on(signal, () => emulator.close().then(() => process.exit(0)));
  console.log(`cwp-emulator listening on ${emulator.url}`);
  if (bindsBeyondLoopback(values.host ?? "127.0.0.1"))
    console.error(
      `cwp-emulator: warning: listening on ${values.host}, beyond this machine. The control plane (/_emulator/*) has no token: anyone who reaches it can reset the world or script faults. It answers only requests addressed to localhost${values["control-host"] ? ` or ${values["control-host"]}` : ""}.`,
    );
  // The organisation's token works for every operation: paste these, and the cwp CLI, the actions
  // run locally and @cwp/client's examples talk to this emulator.
  // Asked on loopback: bound to every address, the emulator is this machine's too.
  const local = new URL(emulator.url);
  if (local.hostname === "0.0.0.0") local.hostname = "127.0.0.1";
  if (local.hostname === "[::]") local.hostname = "[::1]";
  const { tokens } = (await (await fetch(new URL("/_emulator/fixtures", local))).json()) as {
    tokens: { org: string };
  };
  console.log("# Point cwp at it (paste into your shell):");
  console.log(`export CWP_API_URL=${emulator.url}`);
  console.log(`export CWP_API_TOKEN=${tokens.org}`);
}
