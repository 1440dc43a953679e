// Draws one golden summary (May 2026 by team) as a reader sees it and saves it for the README:
// `pnpm --filter @cwp/usage-report run screenshot`.
import { readFile } from "node:fs/promises";
import { closeBrowser, drawSummary } from "../test/browser/draw-summary.ts";

const golden = new URL("../test/report-files/org-team-day/report.md", import.meta.url);
const drawn = await drawSummary(await readFile(golden, "utf8"));
await drawn.page.screenshot({
  path: new URL("../docs/summary.png", import.meta.url).pathname,
  fullPage: true,
});
await closeBrowser();
