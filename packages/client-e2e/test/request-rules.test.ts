import { controlPlane, startEmulator } from "@cwp/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { specRules } from "./rules/spec-rules.js";
import type { Row, Verdict } from "./rules/table.js";

// The cross-check: the client's request schemas and the emulator are two readings of the spec,
// written apart. Every row of the table (each request rule of the spec, just inside and just
// outside) goes through the client's schema and, over HTTP, to the emulator; both must give the
// spec's verdict, and a row where they differ names the rule.

let url: string;
let close: () => Promise<void>;
let token: string;
let rows: Row[];

beforeAll(async () => {
  // Every row is a request: room for all of them in one hour's budget.
  const emulator = await startEmulator({ port: 0, speed: 0, rateLimit: 1_000_000 });
  ({ url, close } = emulator);
  const control = controlPlane(url);
  // biome-ignore lint/suspicious/noExplicitAny: the fixtures' shape is the emulator's contract.
  const fixtures: any = await control("GET", "fixtures");
  const { now } = (await control("GET", "clock")) as { now: string };
  token = fixtures.tokens.org;
  const project = fixtures.projects[0];
  rows = specRules({
    project: project.id,
    projectUid: project.uid,
    teamUid: fixtures.teams[0].uid,
    billingHour: Math.floor(Date.parse(now) / 3_600_000) * 3600 - 86_400,
  });
});
afterAll(() => close?.());

const queryString = (value: Record<string, unknown>) => {
  const params = new URLSearchParams();
  for (const [key, v] of Object.entries(value))
    for (const one of Array.isArray(v) ? v : [v]) params.append(key, String(one));
  return params.size > 0 ? `?${params}` : "";
};

/** The emulator's verdict: a 400 naming a field of the part refuses, any other answer accepts. */
async function emulatorVerdict(row: Row): Promise<{ verdict: Verdict; status: number; details?: unknown }> {
  const { op, value } = row;
  const path =
    op.part === "path" ? op.path.replace("{param}", encodeURIComponent(String(value.param))) : op.path;
  const response = await fetch(`${url}${path}${op.part === "query" ? queryString(value) : ""}`, {
    method: op.method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(op.part === "body" ? { "content-type": "application/json" } : {}),
    },
    ...(op.part === "body" ? { body: JSON.stringify(value) } : {}),
  });
  const body = (await response.json()) as { error?: { details?: Record<string, unknown> } };
  const details = body.error?.details ?? {};
  const refused =
    response.status === 400 && Object.keys(details).some((k) => k === op.part || k.startsWith(`${op.part}.`));
  return { verdict: refused ? "refuse" : "accept", status: response.status, details };
}

const clientVerdict = (row: Row): Verdict =>
  row.op.schema.safeParse(row.op.part === "path" ? row.value.param : row.value).success ? "accept" : "refuse";

describe("the client's schemas and the emulator read every request rule of the spec alike", () => {
  it("covers every operation with a request rule, just inside and just outside", () => {
    const operations = new Set(rows.map((r) => r.op.name));
    expect(operations.size).toBeGreaterThanOrEqual(25);
    expect(rows.length).toBeGreaterThan(400);
    for (const name of operations) {
      const verdicts = new Set(rows.filter((r) => r.op.name === name).map((r) => JSON.stringify(r.expected)));
      expect(verdicts.size, `${name} has rows on both sides of its rules`).toBeGreaterThan(1);
    }
  });

  it("every row: the client and the emulator give the spec's verdict", async () => {
    const disagreements: string[] = [];
    for (const row of rows) {
      const want =
        typeof row.expected === "string" ? { client: row.expected, platform: row.expected } : row.expected;
      const client = clientVerdict(row);
      const emulator = await emulatorVerdict(row);
      if (emulator.status >= 500) disagreements.push(`${row.rule}: the emulator answered ${emulator.status}`);
      if (client !== want.client || emulator.verdict !== want.platform)
        disagreements.push(
          `${row.rule} with ${JSON.stringify(row.value)}: spec ${JSON.stringify(want)}, client ${client}, emulator ${emulator.verdict} (${emulator.status} ${JSON.stringify(emulator.details)})`,
        );
    }
    expect(disagreements).toEqual([]);
    // Some 500 requests one after another: 19 s on a quiet two-core machine, more beside a build.
  }, 60_000);
});
