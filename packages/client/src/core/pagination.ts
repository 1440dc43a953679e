import type { Pagination } from "../schemas/shared.js";
import { emitCwpWarning } from "../transport/transport.js";
import { PageWalk } from "./page-walk.js";

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/**
 * What tells one page of a list from another, cheaply: its length and its first and last items;
 * for an empty page, the cursor it hands on (two empty pages in a row are two pages).
 */
const fingerprint = (items: readonly unknown[], next: string | null | undefined) =>
  JSON.stringify(items.length === 0 ? [0, next] : [items.length, items[0], items.at(-1)]);

/** What identifies an entry of a list: its `id`, or, for entries without one, the whole entry. */
export function identityOf(item: unknown): string {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? `id:${id}` : JSON.stringify(item);
}

/**
 * Pages of a cursor list, first to last, to where the platform says the list ends (`PageWalk.goOn`),
 * each entry once (`PageWalk.firstSeen`, by `identify`): a page's entries read before are left
 * out of it. With a warning (or, for a walk that must read the whole list, an IncompleteListError)
 * a walk also ends on a cursor handed out before, a page that repeats the one before it, or after
 * MAX_PAGES pages (`PageWalk`): a list that goes round never spends the account's budget.
 */
export async function* cursorPages<T, P extends Page<T>>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  firstCursor?: string,
  walk: PageWalk = new PageWalk("a list", emitCwpWarning),
  identify: (item: T) => string = identityOf,
): AsyncGenerator<P> {
  let cursor = firstCursor;
  walk.begin(firstCursor);
  for (;;) {
    const page = await fetchPage(cursor);
    const next = page.pagination.cursor;
    if (!walk.fresh(fingerprint(page.items, next))) return;
    yield { ...page, items: page.items.filter((item) => walk.firstSeen(identify(item))) };
    if (!walk.goOn(page.pagination.hasNextPage, next)) return;
    cursor = next;
  }
}

/** Every item of a cursor list, across all its pages. */
export async function* cursorItems<T>(pages: AsyncIterable<Page<T>>): AsyncGenerator<T> {
  for await (const page of pages) yield* page.items;
}

/** The pagination query every cursor list takes. */
export interface CursorQuery {
  per_page?: number | undefined;
  cursor?: string | undefined;
}

/** Every item of a cursor list operation, across all its pages, from the query's first page on. */
export function iterateItems<T, Q extends CursorQuery>(
  list: (query: Q) => Promise<Page<T>>,
  query: Q,
  walk: PageWalk,
): AsyncGenerator<T> {
  return cursorItems(cursorPages((cursor) => list({ ...query, cursor }), query.cursor, walk));
}
