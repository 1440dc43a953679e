import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { harnessPlatform, type TestPlatform } from "@cwp/action-testing";

// What fetch-logs' test files share (fetch-logs.test.ts, fetch-logs-ranges.test.ts,
// fail-on-regex.test.ts): one emulator per file (each calls `platform.use()` at its top), its clock
// stopped, and the work whose logs they read.

export const actionDir = fileURLToPath(new URL("..", import.meta.url));
export const platform = harnessPlatform({ speed: 0 });
export const base = () => ({
  ...platform.connection(),
  "project-id": "platform-web",
});
export const emulatorNow = async () =>
  Date.parse(((await platform.control("GET", "clock")) as { now: string }).now);
export const file = (name: string) => join(tmpdir(), `cwp-fetch-logs-${process.pid}-${name}`);

/** What the emulator answers for the whole range in one page, to compare with. */
export async function wholeRange(query: Record<string, string>) {
  const search = new URLSearchParams({ ...query, lineLimit: "10000" });
  const res = await fetch(`${platform.url}/v1/projects/platform-web/services/web/logs?${search}`, {
    headers: { authorization: `Bearer ${platform.tokens.org}` },
  });
  return ((await res.json()) as { data: Array<{ ts: string; containerId: string; log: string }> }).data;
}

/** Starts work (a build, a job run) on `on` as any client would; the id it got. */
export async function startWork(on: TestPlatform, path: string, body: unknown): Promise<string> {
  const started = await fetch(`${on.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${on.tokens.org}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return ((await started.json()) as { data: { id: string } }).data.id;
}

/** Starts a build of service web that logs `lines` and concludes at once; its id, once concluded. */
export async function concludedBuildWithLogs(lines: string[]): Promise<string> {
  await platform.control("POST", "outcomes", { kind: "build", durationSeconds: 0, logLines: lines });
  const id = await startWork(platform, "/v1/projects/platform-web/services/web/build", { branch: "main" });
  await platform.control("POST", "clock", { advanceSeconds: 5 });
  return id;
}
