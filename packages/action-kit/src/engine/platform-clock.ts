import { type Clock, spedUpClock } from "@cwp/client";
import { getJson } from "./loopback-json.js";

// The platform's time, handed to a step that talks to an emulator: the emulator runs faster than
// real time (`cwp-emulator --speed 60`, `cwp rehearse`, the demo), and a step that counted this
// machine's time would plan its first poll from a service's history (platform seconds) and sleep
// that long here, time out in real minutes, read logs of "the last 5 minutes" hours before the
// platform's now, and print a 27-second run as "3s". Given where the emulator's time stood at a
// moment of this machine's and how fast it runs, the step's clock is the emulator's. A real
// platform hands none: its time is this machine's.

/** The variable a step finds the platform's time in (JSON: `{ at, realAt, speed }`). */
export const PLATFORM_CLOCK = "CWP_PLATFORM_CLOCK";

/** Where a platform's time stood (`at`, epoch ms) when this machine's stood at `realAt`, and its speed. */
export interface PlatformTime {
  at: number;
  realAt: number;
  speed: number;
}

/** The clock PLATFORM_CLOCK hands in `env`, or undefined where none is handed. */
export function handedClock(env: NodeJS.ProcessEnv = process.env): Clock | undefined {
  const text = env[PLATFORM_CLOCK];
  if (text === undefined || text === "") return undefined;
  let time: Partial<PlatformTime> | undefined;
  try {
    time = JSON.parse(text) as Partial<PlatformTime>;
  } catch {}
  const { at, realAt, speed } = time ?? {};
  if (
    ![at, realAt, speed].every((n) => typeof n === "number" && Number.isFinite(n)) ||
    !((speed as number) > 0)
  )
    throw new Error(`${PLATFORM_CLOCK} must be a JSON object of numbers at, realAt and speed (above 0)`);
  return spedUpClock(time as PlatformTime);
}

/**
 * Where the emulator at `apiUrl` says its clock stands and how fast it runs (its control plane's
 * `GET /_emulator/clock`), asked only of a URL on this machine, where an emulator is: a real
 * platform is never asked. Undefined where none answers so (a real platform behind a local proxy).
 */
export async function emulatorTime(apiUrl: string): Promise<PlatformTime | undefined> {
  if (!URL.canParse(apiUrl)) return undefined;
  const url = new URL(apiUrl);
  if (!/^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(url.hostname)) return undefined;
  const askedAt = Date.now();
  const answer = await getJson(new URL("/_emulator/clock", url), { timeoutMs: 2_000, maxBytes: MAX_ANSWER });
  // The emulator's answer is a few dozen bytes: whatever answers more is no emulator, and is not read.
  const { now, speed } = (answer ?? {}) as { now?: unknown; speed?: unknown };
  const at = typeof now === "string" ? Date.parse(now) : Number.NaN;
  if (!Number.isFinite(at) || typeof speed !== "number" || !(speed > 0)) return undefined;
  return { at, realAt: (askedAt + Date.now()) / 2, speed };
}

/** The most of an answer to `GET /_emulator/clock` read. */
const MAX_ANSWER = 4096;
