import { readFile } from "node:fs/promises";
import { parseWorldFile, startEmulator, WorldFileError } from "@cwp/emulator";

// The platform a rehearsal's steps act on: the emulator, started here (on a world file of the
// user's, or the seeded one), or a platform the user names with --api-url.

/**
 * Virtual seconds per real second by default: a rehearsal checks what a workflow does, not how
 * long the work takes, so a ten-minute build ends in ten seconds.
 */
export const REHEARSAL_SPEED = 60;
/**
 * The emulator's clock starts this long (real time) times the speed in the past, so that it stays
 * behind the steps' own clock for a rehearsal of that long: a real platform's clock is about the
 * runner's, and a step refuses times to come (logs "from the future").
 */
const BEHIND_FOR_MS = 20 * 60_000;
/**
 * But never more than this behind: the further back, the longer each month's first days fall in
 * the month before on the platform (a month-to-date report of the runner's month would read a
 * month the platform has not reached).
 */
const MOST_BEHIND_MS = 6 * 3_600_000;

export interface RehearsalPlatform {
  url: string;
  /** The emulator's token, which stands in for every token the workflow gives a step; none for --api-url. */
  token?: string;
  /** What the rehearsal prints about it. */
  description: string;
  close(): Promise<void>;
}

/** A world file the emulator cannot take: bad input, named by the file and the path in it. */
export class RehearsalInputError extends Error {
  override name = "RehearsalInputError";
}

export async function startRehearsalPlatform(options: {
  apiUrl?: string;
  world?: string;
  speed: number;
}): Promise<RehearsalPlatform> {
  if (options.apiUrl !== undefined)
    return { url: options.apiUrl, description: options.apiUrl, close: async () => {} };
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
    startAt: Date.now() - Math.min(BEHIND_FOR_MS * options.speed, MOST_BEHIND_MS),
    ...(world ? { world } : {}),
  }).catch((error: unknown) => {
    // What only the seeded world can tell (a team the file names that it does not have).
    if (error instanceof WorldFileError)
      throw new RehearsalInputError(`--world ${options.world}: ${error.message}`);
    throw error;
  });
  const { tokens } = (await (await fetch(new URL("/_emulator/fixtures", emulator.url))).json()) as {
    tokens: { org: string };
  };
  return {
    url: emulator.url,
    token: tokens.org,
    description: `the emulator at ${emulator.url}${options.world ? ` with ${options.world}` : " (its seeded world)"}, ${options.speed}× time`,
    close: () => emulator.close(),
  };
}
