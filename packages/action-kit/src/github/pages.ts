import type { GitHubClient } from "./client.js";
import type { GitHubBudget } from "./retry.js";

// GitHub's lists walked by hand, not by Octokit's `paginate`: it drops `request` (the signal) on
// every page after the first, and follows whatever `Link` says, forever and anywhere. Here each
// page is within the step's budget; the walk is bounded in pages; a `next` seen before ends it; one
// on another host than the API (where the token would go) ends it; an item seen before is skipped.

/** GitHub's largest page. */
const PER_PAGE = 100;

/** The list was not what GitHub documents (not an array of objects with an id). */
export class GitHubMalformed extends Error {}

/** Items of a list GitHub pages (`GET` `route`), newest first where GitHub orders them so. */
export async function* listItems<T extends { id: number }>(
  github: GitHubClient,
  route: string,
  params: Record<string, string | number>,
  budget: GitHubBudget,
  maxPages: number,
): AsyncGenerator<T> {
  const api = new URL(github.request.endpoint.DEFAULTS.baseUrl);
  const seenPages = new Set<string>();
  const seenItems = new Set<number>();
  let next: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const response =
      next === undefined
        ? await github.request(`GET ${route}`, { ...params, per_page: PER_PAGE, request: budget })
        : await github.request({ method: "GET", url: next, request: budget });
    const items: unknown = response.data;
    if (!Array.isArray(items)) throw new GitHubMalformed(`GitHub answered GET ${route} with no list`);
    for (const item of items) {
      const id = (item as { id?: unknown })?.id;
      if (typeof id !== "number")
        throw new GitHubMalformed(`GitHub answered GET ${route} with an item without id`);
      if (seenItems.has(id)) continue;
      seenItems.add(id);
      yield item as T;
    }
    next = nextPage(response.headers.link, api);
    if (next === undefined || seenPages.has(next)) return;
    seenPages.add(next);
  }
}

/** The `rel="next"` address of a `Link` header, if it is on the API's own host. */
function nextPage(link: string | undefined, api: URL): string | undefined {
  const match = /<([^>]*)>\s*;\s*rel="next"/.exec(link ?? "");
  if (!match?.[1]) return undefined;
  try {
    const url = new URL(match[1], api);
    return url.origin === api.origin ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}
