import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { machineEnv } from "@cwp/action-testing";

// Runs the built `cwp` bin as a process, as a user or another CI system would.

/** The built `cwp` bin. */
export const BIN = fileURLToPath(new URL("../bin/cwp.js", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** When the cancel's signal was sent and when the process ended (epoch ms). */
  cancelledAt?: number;
  endedAt: number;
}

export async function runCli(
  args: string[],
  options: {
    env?: Record<string, string>;
    cancelWhen?: (printed: string) => boolean;
    /** What cancelWhen sends; default SIGINT (Ctrl-C). */
    signal?: NodeJS.Signals;
    /** Closes the reading end of stdout once this holds, as `| head -1` does after its line. */
    closeStdoutWhen?: (stdout: string) => boolean;
    /** The Node to run it with; default this one. */
    node?: string;
    /** Options for that Node, before the bin (e.g. `--require` of a test's recorder). */
    nodeOptions?: string[];
    /** The folder it runs in; default this process's. */
    cwd?: string;
  } = {},
): Promise<CliResult> {
  const child = spawn(options.node ?? process.execPath, [...(options.nodeOptions ?? []), BIN, ...args], {
    // No test reaches GitHub: other repositories' actions come from a test's stand-in, or from
    // nowhere (a closed port on loopback, refused at once).
    env: {
      ...machineEnv(),
      HOME: process.env.HOME ?? "/tmp",
      GITHUB_API_URL: "http://127.0.0.1:2",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let stdout = "";
  let stderr = "";
  let cancelledAt: number | undefined;
  const check = () => {
    if (cancelledAt === undefined && options.cancelWhen?.(stdout + stderr)) {
      cancelledAt = Date.now();
      child.kill(options.signal ?? "SIGINT");
    }
  };
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk;
    check();
    if (options.closeStdoutWhen?.(stdout)) child.stdout.destroy();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk;
    check();
  });
  const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(killer);
  return { code, stdout, stderr, ...(cancelledAt !== undefined ? { cancelledAt } : {}), endedAt: Date.now() };
}
