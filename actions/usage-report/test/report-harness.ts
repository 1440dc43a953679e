import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  harnessPlatform,
  leakedSecrets,
  type RunOptions,
  runBundle,
  useGitHubStandIn,
} from "@cwp/action-testing";
import { expect } from "vitest";

// What the usage-report test files share (usage-report.test.ts, report-comments.test.ts,
// report-comments-github.test.ts, report-inputs.test.ts, report-platform.test.ts): one emulator per
// file (each calls `platform.use()` at its top), the step run as the runner runs it, and the
// comment tests' stand-in GitHub.

export const actionDir = fileURLToPath(new URL("..", import.meta.url));
export const platform = harnessPlatform({ speed: 0 });
export const DAY = 86_400;
/**
 * A period with whole hours at any instant, for a case whose subject is not the period: the
 * default, month to date, has none in a month's first hour, and the report then reads nothing.
 */
export const WHOLE_HOURS = { period: "last-7-days" };
export const GITHUB_TOKEN = "ghs_stand_in_token_0123456789";
/**
 * A stand-in GitHub for a file's comment tests (called in its describe: it arms the stand-in's
 * hooks), and the environment a step reaches it with. Every request the report made is one GitHub
 * would take.
 */
export function useCommentsGitHub() {
  const github = useGitHubStandIn(GITHUB_TOKEN);
  return { github, env: () => ({ GITHUB_API_URL: github().url }) };
}

export let dirs = 0;
export const outDir = () => {
  dirs += 1;
  return join(tmpdir(), `cwp-usage-report-${process.pid}-${dirs}`);
};

type Json = {
  generatedAt: string;
  total: string;
  previousTotal: string | null;
  currency: string;
  scope: Record<string, unknown> | null;
  roundingGap: string;
  period: { start: string; end: string };
  rows: Array<{ key: string; cost: string; kind: string }>;
  allRows: Array<{ key: string; cost: string; kind: string }>;
  requests: { count: number };
};

export async function report(
  inputs: Record<string, string>,
  options: RunOptions = {},
  token = platform.tokens.org,
) {
  const dir = outDir();
  const result = await runBundle(actionDir, {
    ...options,
    inputs: {
      ...platform.connection(token),
      "output-dir": dir,
      "github-token": GITHUB_TOKEN,
      ...inputs,
    },
  });
  const json =
    result.code === 0 || inputs["fail-on-budget-exceeded"]
      ? (JSON.parse(await readFile(join(dir, "report.json"), "utf8").catch(() => "null")) as Json | null)
      : null;
  expect(leakedSecrets(result, [token, GITHUB_TOKEN])).toEqual([]);
  return { result, json, dir };
}

/** Millionths as exact decimal text, the way report.json writes amounts. */
export const decimalText = (micros: bigint) => {
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const fraction = (abs % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${abs / 1_000_000n}${fraction ? `.${fraction}` : ""}`;
};
export const micros = (x: number | undefined) => BigInt(Math.round((x ?? 0) * 1e6));
type Price = { cpu?: number; memory?: number; storage?: number; gpu?: number; total: number };
export const priceMicros = (p: Price | undefined) =>
  micros(p?.cpu) + micros(p?.memory) + micros(p?.storage) + micros(p?.gpu);

/** The emulator's raw hourly usage over a window, read page by page by the test itself. */
export async function hourly(start: number, end: number, token = platform.tokens.org) {
  // biome-ignore lint/suspicious/noExplicitAny: raw entries as the emulator answers them.
  const entries: any[] = [];
  let cursor: string | undefined;
  do {
    const q = new URLSearchParams({
      granularity: "hour",
      startTime: String(start),
      endTime: String(end),
      perPage: "100",
      ...(cursor ? { cursor } : {}),
    });
    const res = await fetch(`${platform.url}/v1/billing/usage?${q}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const page = (await res.json()) as {
      data: { usage: unknown[] };
      pagination: { hasNextPage: boolean; cursor?: string };
    };
    entries.push(...page.data.usage);
    cursor = page.pagination.hasNextPage ? page.pagination.cursor : undefined;
  } while (cursor);
  return entries;
}

export const yesterday = () => {
  const d = new Date();
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) / 1000 - DAY;
};
export const date = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);
