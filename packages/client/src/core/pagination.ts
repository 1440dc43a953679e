import type { Pagination } from "../schemas/shared.js";
import { emitCwpWarning } from "../transport/transport.js";
import { PageWalk } from "./page-walk.js";

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/** What tells one page of a list from another, cheaply: its length and its first and last items. */
const fingerprint = (items: readonly unknown[]) => JSON.stringify([items.length, items[0], items.at(-1)]);

/**
 * Pages of a cursor list, first to last. Stops on `hasNextPage: false`, a missing cursor, or a page
 * shorter than the page size (a platform that forgets to say it is done still ends the loop); and,
 * with a warning, on a cursor handed out before, a page that repeats the one before it, or after
 * MAX_PAGES pages (`PageWalk`): a list that goes round never spends the account's budget.
 */
export async function* cursorPages<P extends Page<unknown>>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  pageSize: number,
  firstCursor?: string,
  walk: PageWalk = new PageWalk("a list", emitCwpWarning),
): AsyncGenerator<P> {
  let cursor = firstCursor;
  walk.begin(firstCursor);
  for (;;) {
    const page = await fetchPage(cursor);
    if (!walk.fresh(fingerprint(page.items))) return;
    yield page;
    const next = page.pagination.cursor;
    if (!page.pagination.hasNextPage || !next || page.items.length < pageSize) return;
    if (!walk.goOn(next)) return;
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

const DEFAULT_PAGE_SIZE = 50;

/** Every item of a cursor list operation, across all its pages, from the query's first page on. */
export function iterateItems<T, Q extends CursorQuery>(
  list: (query: Q) => Promise<Page<T>>,
  query: Q,
  walk: PageWalk,
): AsyncGenerator<T> {
  return cursorItems(
    cursorPages(
      (cursor) => list({ ...query, cursor }),
      query.per_page ?? DEFAULT_PAGE_SIZE,
      query.cursor,
      walk,
    ),
  );
}
