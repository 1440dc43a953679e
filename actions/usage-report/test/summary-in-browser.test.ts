import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, contrast, drawSummary, measureSummary, type Theme } from "./browser/draw-summary.js";

// Every golden report.md drawn as a reader sees it (a pull request's 780 px, GitHub's stylesheet,
// Mermaid 11, headless Chromium), and judged from the drawn page: the charts' label boxes, bars and
// y-axis, the tables' cells and headers, and the dates and amounts as text.

const goldens = fileURLToPath(new URL("report-files/", import.meta.url));
const cases = (await readdir(goldens)).sort();

afterAll(closeBrowser);

describe("usage-report: the summary as a reader sees it at 780 px", () => {
  it.each(cases)("%s", async (name) => {
    const markdown = await readFile(`${goldens}${name}/report.md`, "utf8");
    const report = JSON.parse(await readFile(`${goldens}${name}/report.json`, "utf8")) as {
      trend: unknown[];
    };
    // Nothing invisible stands in for a label: zero-width spaces and joiners read aloud and paste.
    expect(markdown).not.toMatch(/[\u200b-\u200d\ufeff]/);

    const drawn = await drawSummary(markdown);
    try {
      const seen = await measureSummary(drawn.page);

      // One bar per bucket, over all the charts; no two x-axis labels overlap; the y-axis starts at 0.
      expect(seen.charts.reduce((n, c) => n + c.bars, 0)).toBe(report.trend.length);
      for (const chart of seen.charts) {
        expect(chart.labels).toHaveLength(chart.bars);
        const byLeft = [...chart.labels].sort((a, b) => a.left - b.left);
        for (let i = 1; i < byLeft.length; i++)
          expect(byLeft[i]?.left, `${byLeft[i - 1]?.text} and ${byLeft[i]?.text}`).toBeGreaterThanOrEqual(
            byLeft[i - 1]?.right ?? 0,
          );
        const lowest = [...chart.yLabels].sort((a, b) => b.bottom - a.bottom)[0];
        expect(Number(lowest?.text)).toBeLessThanOrEqual(0);
        for (const fill of chart.barFills)
          expect(contrast(fill, seen.background), fill).toBeGreaterThanOrEqual(3);
      }

      // Amounts and quantities each on one line.
      expect(seen.numberCells.length).toBeGreaterThan(0);
      for (const cell of seen.numberCells) expect(cell.lines, cell.text).toBe(1);

      // No empty header or row; dates as a person reads them; no negative zero.
      expect(seen.emptyHeaders).toBe(0);
      expect(seen.emptyRows).toBe(0);
      expect(seen.text).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
      expect(seen.text).not.toMatch(/-0\.0+(?!\d*[1-9])/);
      expect(seen.headings[0]).toMatch(/^Cloud Workload Platform costs: /);
    } finally {
      await drawn.close();
    }
  });
});

describe("usage-report: the chart's bars against the page, in GitHub's light and dark themes", () => {
  it.each(["light", "dark"] as Theme[])(
    "%s: every bar at least 3:1 against the background (WCAG 1.4.11)",
    async (theme) => {
      const markdown = await readFile(`${goldens}org-team-day/report.md`, "utf8");
      const drawn = await drawSummary(markdown, theme);
      try {
        const seen = await measureSummary(drawn.page);
        const fills = seen.charts.flatMap((c) => c.barFills);
        expect(seen.charts.length).toBeGreaterThan(0);
        expect(fills.length).toBeGreaterThan(0);
        for (const fill of fills)
          expect(contrast(fill, seen.background), `${fill} on ${seen.background}`).toBeGreaterThanOrEqual(3);
      } finally {
        await drawn.close();
      }
    },
  );
});
