import type { Pagination } from "../schemas/shared.js";

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/**
 * Pages of a cursor list, first to last. Stops on `hasNextPage: false`, a missing cursor, or a page
 * shorter than the page size (a platform that forgets to say it is done still ends the loop).
 */
export async function* cursorPages<P extends Page<unknown>>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  pageSize: number,
  firstCursor?: string,
): AsyncGenerator<P> {
  let cursor = firstCursor;
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    const next = page.pagination.cursor;
    if (!page.pagination.hasNextPage || !next || page.items.length < pageSize) return;
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
): AsyncGenerator<T> {
  return cursorItems(
    cursorPages((cursor) => list({ ...query, cursor }), query.per_page ?? DEFAULT_PAGE_SIZE, query.cursor),
  );
}
