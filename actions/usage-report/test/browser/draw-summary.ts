/// <reference lib="dom" />
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
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

/** One browser for a test file; closed by `closeBrowser`. */
function launched(): Promise<Browser> {
  browser ??= chromium
    .executablePath()
    .then((executablePath) => puppeteer.launch({ executablePath, args: chromium.args, headless: true }));
  return browser;
}

export async function closeBrowser(): Promise<void> {
  await (await browser)?.close();
  browser = undefined;
}

/** The page as GitHub shows it: Mermaid blocks become diagrams, the rest is GitHub's HTML and CSS. */
async function html(markdown: string): Promise<string> {
  const renderer = new marked.Renderer();
  const code = renderer.code.bind(renderer);
  renderer.code = (token) =>
    token.lang === "mermaid"
      ? `<pre class="mermaid">${token.text.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</pre>`
      : code(token);
  const body = await marked.parse(markdown, { gfm: true, renderer });
  const css = await readFile(require.resolve("github-markdown-css/github-markdown-light.css"), "utf8");
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}
body { margin: 0; background: #fff; }
.markdown-body { box-sizing: border-box; width: ${COLUMN_PX}px; padding: 16px; }
</style></head><body><article class="markdown-body">${body}</article></body></html>`;
}

/** Draws `markdown` and waits until every chart is drawn. */
export async function drawSummary(markdown: string): Promise<DrawnSummary> {
  const page = await (await launched()).newPage();
  await page.setViewport({ width: COLUMN_PX, height: 900, deviceScaleFactor: 1 });
  await page.setContent(await html(markdown), { waitUntil: "load" });
  await page.addScriptTag({ path: require.resolve("mermaid/dist/mermaid.min.js") });
  await page.evaluate(async () => {
    const mermaid = (
      globalThis as unknown as { mermaid: { initialize(c: object): void; run(o: object): Promise<void> } }
    ).mermaid;
    mermaid.initialize({ startOnLoad: false, theme: "default" });
    await mermaid.run({ querySelector: "pre.mermaid" });
  });
  return { page, close: () => page.close() };
}

/** What the drawn page shows, measured. */
export interface Measured {
  charts: Array<{
    labels: Array<{ text: string; left: number; right: number }>;
    bars: number;
    yLabels: Array<{ text: string; bottom: number }>;
  }>;
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
      // biome-ignore lint/performance/useDomNodeTextContent: the text as drawn is what is judged.
      text: document.body.innerText,
    };
  })) as Measured;
}
