import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import GithubSlugger from "github-slugger";
import { Lexer, type Token, type Tokens, walkTokens } from "marked";
import { describe, expect, it } from "vitest";

// Every link a reader follows in the README, docs/ and the other pages a user or contributor
// reads (CONTRIBUTING, ARCHITECTURE, the examples' and each package's and action's README) goes to
// a file or folder that exists, and a `#heading` to a heading of that page, by the anchors GitHub
// gives headings (github-slugger, the algorithm GitHub's renderer uses: lower case, punctuation
// dropped, spaces as hyphens, a repeated heading numbered). Links are read by marked's lexer, so a
// link inside code is no link, as GitHub renders it.

const root = fileURLToPath(new URL("../../", import.meta.url));

const pages = [
  "README.md",
  "CONTRIBUTING.md",
  "ARCHITECTURE.md",
  "examples/README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
  ...["packages", "actions"].flatMap((folder) =>
    readdirSync(join(root, folder))
      .map((name) => `${folder}/${name}/README.md`)
      .filter((page) => existsSync(join(root, page))),
  ),
];

const tokensOf = (page: string) => new Lexer().lex(readFileSync(join(root, page), "utf8"));

/** The anchors GitHub gives a page's headings. */
function anchorsOf(page: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  walkTokens(tokensOf(page), (token: Token) => {
    if (token.type === "heading") anchors.add(slugger.slug((token as Tokens.Heading).text));
  });
  return anchors;
}

/** Each link's target as written, inline and reference-style alike. */
function linksOf(page: string): string[] {
  const links: string[] = [];
  walkTokens(tokensOf(page), (token: Token) => {
    if (token.type === "link" || token.type === "image") links.push((token as Tokens.Link).href);
  });
  return links;
}

/** Why a link does not resolve, or undefined when it does. */
function brokenLink(page: string, href: string): string | undefined {
  if (/^[a-z]+:/i.test(href)) return undefined; // another site: not this repository's to check
  const [path = "", anchor] = href.split("#");
  const target = path === "" ? page : relative(root, join(root, dirname(page), decodeURIComponent(path)));
  if (target.startsWith("..")) return `${href} leaves the repository`;
  if (!existsSync(join(root, target))) return `${href}: ${target} does not exist`;
  if (anchor === undefined) return undefined;
  if (!target.endsWith(".md") || statSync(join(root, target)).isDirectory())
    return `${href}: an anchor into ${target}, which has no headings`;
  return anchorsOf(target).has(anchor) ? undefined : `${href}: ${target} has no heading #${anchor}`;
}

describe("links in the pages people read", () => {
  it("reads the README, docs/ and every package's and action's README", () => {
    expect(pages).toContain("docs/rehearse.md");
    expect(pages).toContain("actions/trigger-build/README.md");
    expect(linksOf("README.md")).toContain("docs/rehearse.md");
  });

  for (const page of pages)
    it(`${page}: every link goes to a file or heading that exists`, () => {
      const broken = linksOf(page)
        .map((href) => brokenLink(page, href))
        .filter((problem) => problem !== undefined);
      expect(broken).toEqual([]);
    });

  it("finds a link that goes nowhere, and an anchor no heading has", () => {
    expect(brokenLink("README.md", "docs/nowhere.md")).toMatch(/does not exist/);
    expect(brokenLink("README.md", "docs/rehearse.md#no-such-heading")).toMatch(/has no heading/);
    expect(brokenLink("README.md", "#try-it-locally")).toBeUndefined();
    expect(brokenLink("docs/rehearse.md", "../README.md#rehearse-before-you-push")).toBeUndefined();
  });
});
