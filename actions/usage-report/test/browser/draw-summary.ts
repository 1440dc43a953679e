/// <reference lib="dom" />
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { machineClock } from "@cwp/action-testing";
import chromium from "@sparticuz/chromium";
import { marked } from "marked";
import puppeteer, { type Browser, type Page } from "puppeteer-core";

// A report's Markdown drawn as GitHub draws it where people read it: GitHub-flavoured Markdown in
// GitHub's own stylesheet (github-markdown-css), Mermaid 11 for the chart, in a column as wide as a
// pull request's conversation (780 px), in headless Chromium (@sparticuz/chromium, which installs
// its binary from the registry with the rest).

const require = createRequire(import.meta.url);
/** The width of a pull request's conversation column, where a comment or summary is read. */
export const COLUMN_PX = 780;

export interface DrawnSummary {
  page: Page;
  close(): Promise<void>;
}

let browser: Promise<Browser> | undefined;

/**
 * The browser's environment: the test's, but never libfaketime's (`pnpm test:at`). It draws files
 * already written, so its clock decides nothing, and Chromium with libfaketime preloaded drew the
 * first summary in 44 s instead of 4 s, past the test's bound on a busy machine.
 */
const browserEnv = () => {
  const faked = Object.keys(machineClock()).filter((name) => name !== "TZ");
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !faked.includes(name))) as Record<
    string,
    string
  >;
};

/** How long one start of Chromium may take to print its DevTools endpoint. */
const START_WITHIN_MS = 25_000;

/**
 * One browser for a test file; closed by `closeBrowser`. Started a second time where the first
 * start printed no endpoint in time: once in CI (two cores, every package's tests beside it) a
 * Chromium started and printed nothing for 30 s, failing every test of the file on the browser,
 * not on the summary; the second start is what a person at the machine would do.
 */
function launched(): Promise<Browser> {
  const start = (executablePath: string) =>
    puppeteer.launch({
      executablePath,
      args: chromium.args,
      headless: true,
      env: browserEnv(),
      timeout: START_WITHIN_MS,
    });
  browser ??= chromium
    .executablePath()
    .then((executablePath) => start(executablePath).catch(() => start(executablePath)));
  return browser;
}

export async function closeBrowser(): Promise<void> {
  await (await browser)?.close();
  browser = undefined;
}

/** GitHub's two themes: its stylesheet for each, the page's background, and Mermaid's theme. */
export const THEMES = {
  light: { css: "github-markdown-light.css", background: "#ffffff", mermaid: "default" },
  dark: { css: "github-markdown-dark.css", background: "#0d1117", mermaid: "dark" },
} as const;
export type Theme = keyof typeof THEMES;

/** The page as GitHub shows it: Mermaid blocks become diagrams, the rest is GitHub's HTML and CSS. */
async function html(markdown: string, theme: Theme): Promise<string> {
  const renderer = new marked.Renderer();
  const code = renderer.code.bind(renderer);
  renderer.code = (token) =>
    token.lang === "mermaid"
      ? `<pre class="mermaid">${token.text.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</pre>`
      : code(token);
  const body = await marked.parse(markdown, { gfm: true, renderer });
  const css = await readFile(require.resolve(`github-markdown-css/${THEMES[theme].css}`), "utf8");
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}
body { margin: 0; background: ${THEMES[theme].background}; }
.markdown-body { box-sizing: border-box; width: ${COLUMN_PX}px; padding: 16px; }
</style></head><body><article class="markdown-body">${body}</article></body></html>`;
}

/** Draws `markdown` and waits until every chart is drawn. */
export async function drawSummary(markdown: string, theme: Theme = "light"): Promise<DrawnSummary> {
  const page = await (await launched()).newPage();
  await page.setViewport({ width: COLUMN_PX, height: 900, deviceScaleFactor: 1 });
  await page.setContent(await html(markdown, theme), { waitUntil: "load" });
  await page.addScriptTag({ path: require.resolve("mermaid/dist/mermaid.min.js") });
  await page.evaluate(async (mermaidTheme) => {
    const mermaid = (
      globalThis as unknown as { mermaid: { initialize(c: object): void; run(o: object): Promise<void> } }
    ).mermaid;
    mermaid.initialize({ startOnLoad: false, theme: mermaidTheme });
    await mermaid.run({ querySelector: "pre.mermaid" });
  }, THEMES[theme].mermaid);
  return { page, close: () => page.close() };
}

/** The contrast ratio of two colours as CSS draws them (`rgb(r, g, b)`), as WCAG 2.2 defines it. */
export function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r = 0, g = 0, b = 0] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** What the drawn page shows, measured. */
export interface Measured {
  charts: Array<{
    labels: Array<{ text: string; left: number; right: number }>;
    bars: number;
    /** The bars' colours as drawn (`rgb(r, g, b)`). */
    barFills: string[];
    yLabels: Array<{ text: string; bottom: number }>;
  }>;
  /** The page's background as drawn (`rgb(r, g, b)`). */
  background: string;
  /** Every cell of a number column (right-aligned): its text and how many lines it takes. */
  numberCells: Array<{ text: string; lines: number }>;
  emptyHeaders: number;
  emptyRows: number;
  headings: string[];
  text: string;
}

/** Every <details> opened, as a reader may, then the charts, tables and text measured. */
export async function measureSummary(page: Page): Promise<Measured> {
  // The summary opens with every <details> a reader may open.
  await page.evaluate(() => {
    for (const d of document.querySelectorAll("details")) d.open = true;
  });
  return (await page.evaluate(() => {
    const box = (e: Element) => e.getBoundingClientRect();
    const lines = (cell: Element) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    };
    return {
      charts: [...document.querySelectorAll("svg")].map((svg) => ({
        labels: [...svg.querySelectorAll("g.bottom-axis g.label text")].map((t) => ({
          text: t.textContent ?? "",
          left: box(t).left,
          right: box(t).right,
        })),
        bars: svg.querySelectorAll("g.plot rect").length,
        barFills: [...new Set([...svg.querySelectorAll("g.plot rect")].map((r) => getComputedStyle(r).fill))],
        yLabels: [...svg.querySelectorAll("g.left-axis g.label text")].map((t) => ({
          text: t.textContent ?? "",
          bottom: box(t).bottom,
        })),
      })),
      numberCells: [...document.querySelectorAll('td[align="right"]')].map((td) => ({
        text: td.textContent ?? "",
        lines: lines(td),
      })),
      emptyHeaders: [...document.querySelectorAll("th")].filter((th) => !th.textContent?.trim()).length,
      emptyRows: [...document.querySelectorAll("tr")].filter((tr) => !tr.textContent?.trim()).length,
      headings: [...document.querySelectorAll("h2, h3")].map((h) => h.textContent ?? ""),
      background: getComputedStyle(document.body).backgroundColor,
      // biome-ignore lint/performance/useDomNodeTextContent: the text as drawn is what is judged.
      text: document.body.innerText,
    };
  })) as Measured;
}
