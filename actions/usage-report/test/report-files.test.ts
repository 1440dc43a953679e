import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runBundle, useTestPlatform } from "@cwp/action-testing";
import { describe, expect, it } from "vitest";

// The report files, byte for byte, against files the report wrote before it read usage as a stream
// (report-files/, written by the bundle of the commit that added this test, and again where the
// files changed on purpose: focus.csv's x_ProjectId became the project's id, beside x_ProjectUid; report.json's `notYet`, null where the period has a whole hour). The emulator's clock
// starts at a fixed time, so its billing is the same on every run; only `generatedAt` (the runner's
// clock) is replaced. focus.csv of a whole organisation is compared by its SHA-256 (it is large);
// the filtered case keeps it verbatim.

const actionDir = fileURLToPath(new URL("..", import.meta.url));
const platform = useTestPlatform({ speed: 0, startAt: Date.parse("2026-06-15T12:34:56Z") });

interface Case {
  name: string;
  token?: "org" | "teamViaOrg" | "teamOwnBilling";
  inputs: Record<string, string>;
  /** Only the first project (`project-uid`), and focus.csv verbatim instead of its hash. */
  oneProject?: boolean;
  /** Injected before the run; such a case writes what the case it names wrote (focus.csv is not compared again). */
  faults?: { method: string; path: string; delayMs: number }[];
  sameAs?: string;
}

const CASES: Case[] = [
  {
    name: "org-project-month",
    inputs: { start: "2026-03-01", end: "2026-05-31", granularity: "month", "group-by": "project" },
  },
  {
    name: "org-project-12-months",
    inputs: { start: "2025-06-01", end: "2026-05-31", granularity: "month", "group-by": "project" },
  },
  {
    name: "org-team-day",
    inputs: { start: "2026-05-01", end: "2026-05-31", granularity: "day", "group-by": "team", top: "2" },
  },
  {
    // The trend is read beside the names; here it is all in before them, so its buckets wait,
    // folded, and are written in order once the names are read.
    name: "org-team-day-names-late",
    faults: [{ method: "GET", path: "/v1/teams", delayMs: 1500 }],
    sameAs: "org-team-day",
    inputs: { start: "2026-05-01", end: "2026-05-31", granularity: "day", "group-by": "team", top: "2" },
  },
  {
    name: "org-resource-type-hour",
    inputs: { start: "2026-06-01", end: "2026-06-02", granularity: "hour", "group-by": "resource-type" },
  },
  {
    name: "org-resource-day-one-project",
    inputs: { start: "2026-05-25", end: "2026-05-31", granularity: "day", "group-by": "resource" },
    oneProject: true,
  },
  {
    name: "team-via-org-project-day",
    token: "teamViaOrg",
    inputs: {
      start: "2026-05-01",
      end: "2026-05-14",
      granularity: "day",
      "group-by": "project",
      budget: "50",
    },
  },
  {
    name: "team-own-billing-month",
    token: "teamOwnBilling",
    inputs: { start: "2026-01-01", end: "2026-05-31", granularity: "month", "group-by": "resource-type" },
  },
];

const sha256 = (text: string) => `sha256 ${createHash("sha256").update(text).digest("hex")}\n`;

describe("usage-report: the files, byte for byte", () => {
  it.each(CASES)("$name", async ({ name, token = "org", inputs, oneProject, faults, sameAs }) => {
    if (faults) await platform.control("POST", "faults", faults);
    const dir = join(tmpdir(), `cwp-usage-report-files-${process.pid}-${name}`);
    const extra: Record<string, string> = oneProject
      ? { "project-uid": platform.fixtures.projects[0].uid }
      : {};
    const result = await runBundle(actionDir, {
      inputs: {
        ...platform.connection(platform.tokens[token]),
        "output-dir": dir,
        formats: "markdown,csv,json,focus",
        ...inputs,
        ...extra,
      },
    });
    expect(result.code, result.stdout).toBe(0);
    const json = await readFile(join(dir, "report.json"), "utf8");
    const generatedAt = (JSON.parse(json) as { generatedAt: string }).generatedAt;
    const read = async (file: string) =>
      (await readFile(join(dir, file), "utf8")).split(generatedAt).join("<generated-at>");
    const golden = (file: string) => join(actionDir, "test/report-files", sameAs ?? name, file);
    await expect(await read("report.json")).toMatchFileSnapshot(golden("report.json"));
    await expect(await read("report.md")).toMatchFileSnapshot(golden("report.md"));
    await expect(await read("report.csv")).toMatchFileSnapshot(golden("report.csv"));
    if (faults) return;
    const focus = await read("focus.csv");
    if (oneProject) await expect(focus).toMatchFileSnapshot(golden("focus.csv"));
    else await expect(sha256(focus)).toMatchFileSnapshot(golden("focus.csv.sha256"));
  });
});
