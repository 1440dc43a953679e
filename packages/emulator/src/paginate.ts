import type { z } from "zod";
import { ApiFailure } from "./http.js";
import { cursorListQuery } from "./rules/shared.js";
import { checkQuery } from "./validate.js";

/** An opaque cursor: the offset of the next page. */
export const encodeCursor = (offset: number) => Buffer.from(`o:${offset}`).toString("base64url");

export function decodeCursor(cursor: string): number {
  const match = /^o:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match)
    throw new ApiFailure(400, "invalid query", { "query.cursor": ["not a cursor this API returned"] });
  return Number(match[1]);
}

/** One page from an offset, with the pagination object of spec 2.1. */
export function pageAt<T>(items: readonly T[], offset: number, size: number) {
  const page = items.slice(offset, offset + size);
  const hasNextPage = offset + size < items.length;
  return {
    items: page,
    pagination: {
      hasNextPage,
      count: page.length,
      ...(hasNextPage ? { cursor: encodeCursor(offset + size) } : {}),
    },
  };
}

/** Cursor lists of spec 2.1 and 8: `per_page` at most 100 (default 50), `page` or `cursor`. */
export function paginate<T>(
  items: readonly T[],
  query: URLSearchParams,
  schema: z.ZodType = cursorListQuery,
) {
  const q = checkQuery(schema, query) as {
    per_page?: number;
    page?: number;
    cursor?: string;
  };
  const size = q.per_page ?? 50;
  const offset = q.cursor ? decodeCursor(q.cursor) : ((q.page ?? 1) - 1) * size;
  return pageAt(items, offset, size);
}

/** What was created through the API (builds, runs, restores), newest first, as a cursor list. */
export function newestFirst<R, V>(records: readonly R[], view: (record: R) => V, query: URLSearchParams) {
  return paginate(records.toReversed().map(view), query);
}
