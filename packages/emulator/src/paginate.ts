import type { z } from "zod";
import { ApiFailure } from "./http.js";
import { cursorListQuery } from "./rules/shared.js";
import type { PageShape } from "./settings.js";
import { checkQuery } from "./validate.js";

// Every list the emulator pages (cursor lists, billing lists, drill-down levels) takes its pages
// from here, in the page shape the settings give (POST /_emulator/settings `pageShape`). The spec
// makes `hasNextPage` the only word that ends a list; a platform may serve fewer entries than
// asked, so the shapes other than "whole" are the ways a live platform pages that a reader must
// follow to the end:
//   whole          as many as asked, as the spec's examples show;
//   split          half what was asked: a page of 100 served as two pages of 50;
//   short          pages of varying length below what was asked;
//   empty-between  an empty page, saying there is a next one, before every page;
//   growing        the list gains an entry at its head between pages (a build started while the
//                  list is read): each later page starts with the last entry of the page before,
//                  as the cursor's place moved on by one. The list's total changes under the reader.

/** Where a page starts: an offset, and (empty-between) whether the empty page before it was served. */
interface Position {
  offset: number;
  ready: boolean;
}

/** One page of a list: the slice of its items, and where the next page starts (none: the last). */
interface Slice {
  start: number;
  end: number;
  next?: Position;
}

/** An opaque cursor: where the next page starts. */
const encodeCursor = (at: Position) =>
  Buffer.from(`${at.ready ? "r" : "o"}:${at.offset}`).toString("base64url");

function decodeCursor(cursor: string): Position {
  const match = /^([or]):(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match)
    throw new ApiFailure(400, "invalid query", { "query.cursor": ["not a cursor this API returned"] });
  return { offset: Number(match[2]), ready: match[1] === "r" };
}

/** How many items a page at `offset` holds when `size` were asked. */
function pageLength(shape: PageShape, offset: number, size: number): number {
  if (shape === "split") return Math.ceil(size / 2);
  // Between 1 and one fewer than asked, varying from page to page.
  if (shape === "short") return size === 1 ? 1 : 1 + ((offset * 7 + 3) % (size - 1));
  return size;
}

function sliceAt(total: number, at: Position, size: number, shape: PageShape): Slice {
  if (shape === "empty-between" && !at.ready && at.offset < total)
    return { start: at.offset, end: at.offset, next: { offset: at.offset, ready: true } };
  // A page of one cannot show the move: it would be the page before again, for ever.
  const start = shape === "growing" && at.offset > 0 && size > 1 ? at.offset - 1 : at.offset;
  const end = Math.min(total, start + pageLength(shape, start, size));
  return { start, end, ...(end < total ? { next: { offset: end, ready: false } } : {}) };
}

/** The pagination object of spec 2.1 for a slice: `cursor` only when a next page exists. */
function paginationOf(slice: Slice) {
  return {
    hasNextPage: slice.next !== undefined,
    count: slice.end - slice.start,
    ...(slice.next ? { cursor: encodeCursor(slice.next) } : {}),
  };
}

/**
 * One page of a cursor list (a cursor from the previous page, or none for the first): the range of
 * its items, for lists whose items are made only once served, and its pagination object.
 */
export function cursorPage(total: number, cursor: string | undefined, size: number, shape: PageShape) {
  const slice = sliceAt(total, cursor ? decodeCursor(cursor) : { offset: 0, ready: false }, size, shape);
  return { start: slice.start, end: slice.end, pagination: paginationOf(slice) };
}

/** Where page `page` (1 first) starts: page numbers count the pages the shape serves. */
function positionOfPage(total: number, page: number, size: number, shape: PageShape): Position {
  let at: Position = { offset: 0, ready: false };
  for (let p = 1; p < page; p += 1) {
    const next = sliceAt(total, at, size, shape).next;
    if (!next) return { offset: total, ready: true };
    at = next;
  }
  return at;
}

/** One page of a list paged by number (drill-down levels), 1 first. */
export function numberedPage<T>(items: readonly T[], page: number, size: number, shape: PageShape) {
  const slice = sliceAt(items.length, positionOfPage(items.length, page, size, shape), size, shape);
  return { items: items.slice(slice.start, slice.end), hasNextPage: slice.next !== undefined };
}

/** Cursor lists of spec 2.1 and 8: `per_page` at most 100 (default 50), `page` or `cursor`. */
export function paginate<T>(
  items: readonly T[],
  query: URLSearchParams,
  shape: PageShape,
  schema: z.ZodType = cursorListQuery,
) {
  const q = checkQuery(schema, query) as {
    per_page?: number;
    page?: number;
    cursor?: string;
  };
  const size = q.per_page ?? 50;
  // A page number counts pages as the shape serves them; a cursor says where the page starts.
  const at = q.cursor ? decodeCursor(q.cursor) : positionOfPage(items.length, q.page ?? 1, size, shape);
  const slice = sliceAt(items.length, at, size, shape);
  return { items: items.slice(slice.start, slice.end), pagination: paginationOf(slice) };
}

/** What was created through the API (builds, runs, restores), newest first, as a cursor list. */
export function newestFirst<R, V>(
  records: readonly R[],
  view: (record: R) => V,
  query: URLSearchParams,
  shape: PageShape,
) {
  return paginate(records.toReversed().map(view), query, shape);
}
