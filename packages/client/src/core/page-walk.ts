import { IncompleteListError } from "../transport/errors.js";

/**
 * Most pages a walk over one list reads before it stops with a warning: a list that never ends
 * (a cursor that leads back, a platform that ignores the page asked for) must not spend the
 * account's hourly request budget. 1,000 pages of 100 is 100,000 items.
 */
export const MAX_PAGES = 1_000;

/**
 * Guards a walk over a list's pages: it ends on a cursor it was already given, on a page that
 * repeats the one before it, or past MAX_PAGES, each time with a warning naming the list. Nothing
 * read is lost: the walk stops before reading what it has read already. A walk that must read the
 * whole list (`whole`) throws an IncompleteListError instead: a listing may end with part of a
 * list, data that replaces data may not.
 */
export class PageWalk {
  readonly #seen = new Set<string>();
  readonly #entries = new Set<string>();
  #pages = 0;
  #last: string | undefined;

  constructor(
    /** The list, for the warning: "GET /v1/projects". */
    private readonly what: string,
    private readonly warn: (message: string) => void,
    private readonly whole = false,
  ) {}

  /** The cursor the walk begins at, when it has one: leading back to it is going round too. */
  begin(cursor: string | undefined): void {
    if (cursor !== undefined) this.#seen.add(cursor);
  }

  /**
   * Whether the page just read is new: false (after a warning) when it repeats the page before it.
   * `fingerprint` is what identifies the page's content (its items' ids, say).
   */
  fresh(fingerprint: string): boolean {
    const repeated = this.#last === fingerprint;
    this.#last = fingerprint;
    if (repeated) this.#cutShort("answered the same page twice in a row");
    return !repeated;
  }

  /**
   * Whether an entry (by what identifies it in its list: an id, an hour) is read for the first time
   * in this walk. A list that gains entries at its head while it is read (a build started meanwhile)
   * moves the place a cursor or page number points at, so a later page repeats entries of the page
   * before: each is handed over once. Holds the identities of the entries read: what was asked for.
   */
  firstSeen(identity: string): boolean {
    if (this.#entries.has(identity)) return false;
    this.#entries.add(identity);
    return true;
  }

  /**
   * Whether to read the page `next` names (a cursor or a page number), after one more page was
   * read. The one place the client decides where a list ends: only where the platform says so
   * (spec 2.1: `hasNextPage` is required, and a cursor is there when a next page exists), so
   * `hasNextPage` not true, or no `next`, ends it. A page shorter than asked, even an empty one,
   * does not: a platform may cap or split its pages. The walk's own limits end it too, each with
   * its warning or error: a cursor handed out before, MAX_PAGES pages.
   */
  goOn(hasNextPage: boolean | null | undefined, next: string | null | undefined): next is string {
    if (hasNextPage !== true || !next) return false;
    this.#pages += 1;
    if (this.#seen.has(next)) {
      this.#cutShort("handed out a cursor it had handed out before", "once, up to there");
      return false;
    }
    if (this.#pages >= MAX_PAGES) {
      this.#cutShort(`still had more after ${MAX_PAGES} pages`);
      return false;
    }
    this.#seen.add(next);
    return true;
  }

  #cutShort(why: string, read = "up to there"): void {
    if (!this.whole) {
      this.warn(`${this.what} ${why}: the list was read ${read}.`);
      return;
    }
    const [method = "GET", path = ""] = this.what.split(" ");
    throw new IncompleteListError(
      `${this.what} ${why} after ${this.#pages + 1} pages: the list could not be read whole, so nothing was written from it.`,
      { method, path },
    );
  }
}
