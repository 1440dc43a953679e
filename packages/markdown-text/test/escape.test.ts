import { describe, expect, it } from "vitest";
import { escapeCell, escapeHtml, markdownHref } from "../src/index.js";

describe("@cwp/markdown-text", () => {
  it("shows a cell's Markdown, HTML, mentions, references and links as text, in one line", () => {
    const cell = escapeCell("**x** | <b>y</b> @acme/admins #12 https://evil.example www.evil.example\nnext");
    expect(cell).not.toMatch(/[*|<>\n]/);
    expect(cell).not.toMatch(/@acme|(?<!&)#12|https:\/\/|www\./);
    expect(cell).toContain("&#42;&#42;x&#42;&#42; &#124; &lt;b&gt;y&lt;/b&gt;");
    expect(cell.endsWith(" next")).toBe(true);
  });

  it("replaces characters that reorder text", () => {
    expect(escapeCell("a\u202eb")).toBe("a\ufffdb");
    expect(escapeHtml("<i>\u2066x</i>")).toBe("&lt;i&gt;\ufffdx&lt;/i&gt;");
  });

  it("links only http(s) without credentials, the target unable to end the link, cell or row", () => {
    expect(markdownHref("https://app.example/a b|c)")).toBe("https://app.example/a%20b%7Cc%29");
    expect(markdownHref("https://user:pass@app.example/")).toBeUndefined();
    expect(markdownHref("javascript:alert(1)")).toBeUndefined();
    expect(markdownHref("not a url")).toBeUndefined();
  });
});
