import { afterAll, beforeAll } from "vitest";
import { startTestPlatform, type TestPlatform, type TestPlatformOptions } from "./emulated.js";

/** One emulator for a test file: started before its tests, closed after them. */
export function useTestPlatform(options: TestPlatformOptions = {}): TestPlatform {
  let platform: TestPlatform | undefined;
  beforeAll(async () => {
    platform = await startTestPlatform({ speed: 30, ...options });
  });
  afterAll(() => platform?.close());
  return delegateTo(() => {
    if (!platform) throw new Error("the test platform starts in beforeAll: use it inside tests");
    return platform;
  });
}

/** A test platform a harness shares with the test files that import it: each file's own emulator. */
export interface HarnessPlatform extends TestPlatform {
  /** Gives the calling test file an emulator of its own (useTestPlatform); call once, at its top. */
  use(): void;
}

/**
 * The emulator of a harness module (what several test files import). A worker runs one file after
 * another and keeps the modules they imported (vitest's `isolate: false`): a harness is evaluated
 * once for all of them, and hooks it registered itself would belong to the first file only. Each
 * file arms it instead (`platform.use()`), and the harness's functions reach that file's emulator.
 */
export function harnessPlatform(options: TestPlatformOptions = {}): HarnessPlatform {
  let current: TestPlatform | undefined;
  const handle = delegateTo(() => {
    if (!current) throw new Error("no test file called platform.use(): call it at the file's top");
    return current;
  }) as HarnessPlatform;
  handle.use = () => {
    current = useTestPlatform(options);
  };
  return handle;
}

function delegateTo(get: () => TestPlatform): TestPlatform {
  return {
    get url() {
      return get().url;
    },
    get tokens() {
      return get().tokens;
    },
    get fixtures() {
      return get().fixtures;
    },
    control: (method, path, body) => get().control(method, path, body),
    requests: () => get().requests(),
    reset: () => get().reset(),
    close: () => get().close(),
    connection: (token) => get().connection(token),
    stepClock: () => get().stepClock(),
  };
}
