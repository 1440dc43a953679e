import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileCommandText, readEnvFile } from "@cwp/workflow-rehearsal";
import { parse as parseYaml } from "yaml";
import { machineEnv } from "./machine-env.js";

// The runner contract (ARCHITECTURE.md, "The actions and the runner contract"): `node dist/index.js` with INPUT_<NAME>
// variables (defaults from action.yml), the GITHUB_* files in a temporary folder, and cancellation
// as SIGINT then SIGTERM 7.5 s later.

export interface RunOptions {
  inputs?: Record<string, string>;
  env?: Record<string, string>;
  /** The workflow event: its name and payload. */
  event?: { name: string; payload: unknown; sha?: string; ref?: string };
  /** Sends SIGINT once printed output satisfies this. */
  cancelWhen?: (printed: string) => boolean;
  /** Sends SIGINT once this resolves (e.g. when the platform holds the start request). */
  cancelOn?: Promise<unknown>;
  /** Called with each chunk printed (the demo shows them as they come). */
  onOutput?: (text: string) => void;
  /** Kills the process after this long (ms) as a last resort. */
  killAfterMs?: number;
  /** Called with the process id once it started (benchmarks read its memory). */
  onSpawn?: (pid: number) => void;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** When SIGINT was sent and when the process ended (epoch ms). */
  cancelledAt?: number;
  endedAt: number;
}

interface ActionYml {
  runs: { using: string; main: string };
  inputs?: Record<string, { default?: string }>;
  outputs?: Record<string, unknown>;
}

export async function readActionYml(actionDir: string): Promise<ActionYml> {
  return parseYaml(await readFile(join(actionDir, "action.yml"), "utf8")) as ActionYml;
}

export async function runBundle(actionDir: string, options: RunOptions = {}): Promise<RunResult> {
  const yml = await readActionYml(actionDir);
  const temp = await mkdtemp(join(tmpdir(), "cwp-runner-"));
  const files = {
    GITHUB_OUTPUT: join(temp, "output"),
    GITHUB_STEP_SUMMARY: join(temp, "summary.md"),
    GITHUB_STATE: join(temp, "state"),
    GITHUB_ENV: join(temp, "env"),
    GITHUB_EVENT_PATH: join(temp, "event.json"),
  };
  for (const file of Object.values(files)) await writeFile(file, "");
  await writeFile(files.GITHUB_EVENT_PATH, JSON.stringify(options.event?.payload ?? {}));
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(yml.inputs ?? {}))
    if (spec.default !== undefined) inputs[name] = String(spec.default);
  Object.assign(inputs, options.inputs);
  const env: Record<string, string> = {
    ...machineEnv(),
    HOME: process.env.HOME ?? temp,
    ...files,
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: temp,
    GITHUB_REPOSITORY: "acme/shop",
    GITHUB_EVENT_NAME: options.event?.name ?? "push",
    GITHUB_SHA: options.event?.sha ?? "0123456789abcdef0123456789abcdef01234567",
    GITHUB_REF: options.event?.ref ?? "refs/heads/main",
    RUNNER_TEMP: temp,
    ...Object.fromEntries(
      Object.entries(inputs).map(([k, v]) => [`INPUT_${k.replace(/ /g, "_").toUpperCase()}`, v]),
    ),
    ...options.env,
  };
  const child = spawn(process.execPath, [join(actionDir, yml.runs.main)], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  let stdout = "";
  let stderr = "";
  let cancelledAt: number | undefined;
  const cancel = () => {
    if (cancelledAt !== undefined || child.exitCode !== null) return;
    cancelledAt = Date.now();
    child.kill("SIGINT");
    setTimeout(() => child.exitCode === null && child.kill("SIGTERM"), 7500).unref();
  };
  const check = () => {
    if (options.cancelWhen?.(stdout + stderr)) cancel();
  };
  options.cancelOn?.then(cancel);
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk;
    options.onOutput?.(chunk.toString());
    check();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk;
    options.onOutput?.(chunk.toString());
    check();
  });
  const killer = setTimeout(() => child.kill("SIGKILL"), options.killAfterMs ?? 60_000);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(killer);
  const result: RunResult = {
    code,
    stdout,
    stderr,
    // Read as the runner reads it (the rehearsal's reader): a file it would refuse fails the test.
    outputs: readEnvFile(fileCommandText(await readFile(files.GITHUB_OUTPUT, "utf8"))),
    summary: await readFile(files.GITHUB_STEP_SUMMARY, "utf8"),
    ...(cancelledAt !== undefined ? { cancelledAt } : {}),
    endedAt: Date.now(),
  };
  await rm(temp, { recursive: true, force: true });
  return result;
}

/**
 * A secret as escaping may have re-encoded it past the runner's exact-string masking: as written,
 * with every punctuation character as an HTML entity (`&#95;` for `_`), HTML-escaped, and
 * percent-escaped as workflow command data.
 */
function encodings(secret: string): string[] {
  const entities = secret.replace(/[^A-Za-z0-9 ]/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = secret
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
  const data = secret.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  return [...new Set([secret, entities, html, data])];
}

/**
 * Secrets that appear in anything the step printed or wrote, also re-encoded by escaping, other
 * than the `::add-mask::` commands that tell the runner to hide them.
 */
export function leakedSecrets(result: RunResult, secrets: readonly string[]): string[] {
  const printed = `${result.stdout}\n${result.stderr}`
    .split("\n")
    .filter((line) => !line.startsWith("::add-mask::"))
    .join("\n");
  const everything = `${printed}\n${result.summary}\n${JSON.stringify(result.outputs)}`;
  return secrets.filter((secret) => encodings(secret).some((form) => everything.includes(form)));
}
