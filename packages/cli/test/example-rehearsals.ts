import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "./run-cli.js";

// `cwp rehearse` run as a user runs it from the clone, on the examples' world (examples/world.yaml):
// what rehearse.test.ts and rehearse-refusals.test.ts share.

export const root = fileURLToPath(new URL("../../../", import.meta.url));
export const HEAD_SHA = "89abcdef0123456789abcdef0123456789abcdef";
export const SECRET = "cwp_rehearsal_secret_value_0042";

export async function payloadFile(payload: unknown): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), "cwp-rehearse-test-")), "payload.json");
  await writeFile(file, JSON.stringify(payload));
  return file;
}

/** The workflows' secret, given as a user gives it; the emulator's token is sent in its place. */
export const GIVEN = ["--secret", "CWP_API_TOKEN=any"];

/**
 * The examples are rehearsed at the default speed (60×), as a user runs them: our steps count the
 * platform's time, and every second a step spends on this machine (a process starting, a report
 * read) is a minute of its job's `timeout-minutes`. At 300× a loaded machine spent
 * deploy-production's 60 minutes, and cost-report-on-pull-requests' 10, before the work did.
 */
export const rehearse = (args: string[]) =>
  runCli(["rehearse", ...GIVEN, ...args, "--world", "examples/world.yaml", "--sha", HEAD_SHA], {
    cwd: root,
    env: { NO_COLOR: "1" },
  });
