import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { machineEnv, sendHugeAnswer } from "@cwp/action-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_CODES } from "../src/exit-codes.js";

// A platform that answers what no platform should: an endless answer to a status read, an error
// nested 100,000 deep. cwp ends with a clear error in bounded memory, not out of memory or stack.

const BIN = fileURLToPath(new URL("../bin/cwp.js", import.meta.url));

let server: Server;
let url: string;
let answer: "endless" | "deep" = "endless";

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (answer === "deep") {
      const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
      res.writeHead(400, { "content-type": "application/json" });
      res.end(`{"error":{"message":"bad","details":${deep}}}`);
      return;
    }
    // 1.5 GB, as fast as the reader takes it, without a length.
    sendHugeAnswer(res, {});
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs `cwp upgrade-addon` (its first request reads the addon) and its peak resident memory. */
async function upgrade(): Promise<{ code: number | null; stderr: string; peakMb: number }> {
  const child = spawn(
    process.execPath,
    [BIN, "upgrade-addon", "--project-id", "p1", "--addon-id", "db", "--version", "17.0", "--timeout", "60s"],
    {
      env: { ...machineEnv(), CWP_API_URL: url, CWP_API_TOKEN: "cwp_test_token" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => {
    stderr += c;
  });
  child.stdout.resume();
  let peakMb = 0;
  const sample = setInterval(async () => {
    const status = await readFile(`/proc/${child.pid}/status`, "utf8").catch(() => "");
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    peakMb = Math.max(peakMb, rss);
  }, 20);
  const [code] = (await once(child, "close")) as [number | null];
  clearInterval(sample);
  return { code, stderr, peakMb };
}

describe("cwp against a hostile platform", () => {
  it("refuses an endless answer to a status read as too large, at once, in bounded memory", async () => {
    answer = "endless";
    const result = await upgrade();
    expect(result.code).toBe(EXIT_CODES.failed);
    expect(result.stderr).toMatch(
      /GET \/v1\/projects\/p1\/addons\/db answered 200 with an answer too large \(over 32 MB/,
    );
    expect(result.peakMb).toBeLessThan(400);
  });

  it("reports an error nested 100,000 deep without overflowing the stack", async () => {
    answer = "deep";
    const result = await upgrade();
    expect(result.code).toBe(EXIT_CODES.failed);
    expect(result.stderr).toContain("failed with 400: bad");
    expect(result.stderr).not.toMatch(/Maximum call stack|RangeError/);
  });
});
