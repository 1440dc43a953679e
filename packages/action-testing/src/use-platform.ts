import { afterAll, beforeAll } from "vitest";
import { startTestPlatform, type TestPlatform, type TestPlatformOptions } from "./emulated.js";

/** One emulator for a test file: started before its tests, closed after them. */
export function useTestPlatform(options: TestPlatformOptions = {}): TestPlatform {
  let platform: TestPlatform | undefined;
  const get = () => {
    if (!platform) throw new Error("the test platform starts in beforeAll: use it inside tests");
    return platform;
  };
  beforeAll(async () => {
    platform = await startTestPlatform({ speed: 30, ...options });
  });
  afterAll(() => platform?.close());
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
