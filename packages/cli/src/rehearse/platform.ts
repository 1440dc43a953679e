import { readFile } from "node:fs/promises";
import { emulatorTime, getJson, type PlatformTime } from "@cwp/action-kit/engine";
import { type Clock, spedUpClock, systemClock } from "@cwp/client";
import { parseWorldFile, startEmulator, WorldFileError } from "@cwp/emulator";
import { RehearsalInputError } from "./input-error.js";

// The platform a rehearsal's steps act on: the emulator, started here (on a world file of the
// user's, or the seeded one), or a platform the user names with --api-url.

/** The emulator's fixtures (its tokens among them), read whole: a world's resources, a few MB at most. */
const FIXTURES_LIMITS = { timeoutMs: 30_000, maxBytes: 64 * 1024 * 1024 };

export interface RehearsalPlatform {
  url: string;
  /** The emulator's token, which stands in for every token the workflow gives a step; none for --api-url. */
  token?: string;
  /** What the rehearsal prints about it. */
  description: string;
  /** The emulator's time, which our steps count (PLATFORM_CLOCK); none for --api-url, whose is real time. */
  time?: PlatformTime;
  /** The platform's time: what our steps' timeouts and the job's spend, as they count. */
  clock: Clock;
  close(): Promise<void>;
}

export async function startRehearsalPlatform(options: {
  apiUrl?: string;
  world?: string;
  speed: number;
}): Promise<RehearsalPlatform> {
  if (options.apiUrl !== undefined)
    return { url: options.apiUrl, description: options.apiUrl, clock: systemClock, close: async () => {} };
  let world: ReturnType<typeof parseWorldFile> | undefined;
  if (options.world !== undefined) {
    const text = await readFile(options.world, "utf8").catch((error: NodeJS.ErrnoException) => {
      throw new RehearsalInputError(
        `--world ${options.world}: cannot be read (${error.code ?? error.message})`,
      );
    });
    try {
      world = parseWorldFile(text);
    } catch (error) {
      if (error instanceof WorldFileError)
        throw new RehearsalInputError(`--world ${options.world}: ${error.message}`);
      throw error;
    }
  }
  const emulator = await startEmulator({
    port: 0,
    speed: options.speed,
    ...(world ? { world } : {}),
  }).catch((error: unknown) => {
    // What only the seeded world can tell (a team the file names that it does not have).
    if (error instanceof WorldFileError)
      throw new RehearsalInputError(`--world ${options.world}: ${error.message}`);
    throw error;
  });
  const fixtures = (await getJson(new URL("/_emulator/fixtures", emulator.url), FIXTURES_LIMITS)) as
    | { tokens?: { org?: string } }
    | undefined;
  const token = fixtures?.tokens?.org;
  if (token === undefined) throw new Error(`the emulator at ${emulator.url} did not give its tokens`);
  // Where its time stands now, read from it: our steps' clock starts there and runs as fast.
  const time = await emulatorTime(emulator.url);
  if (!time) throw new Error(`the emulator at ${emulator.url} did not say where its clock stands`);
  return {
    url: emulator.url,
    token,
    time,
    clock: spedUpClock(time),
    description: `the emulator at ${emulator.url}${options.world ? ` with ${options.world}` : " (its seeded world)"}, ${options.speed}× time`,
    close: () => emulator.close(),
  };
}
