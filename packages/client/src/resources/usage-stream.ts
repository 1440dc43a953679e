import { type CallOptions, type Core, withSignal } from "../core/core.js";
import {
  JsonArraySplitter,
  PieceTooLargeError,
  type SkippedArray,
  type SplitPiece,
} from "../core/json-array-splitter.js";
import { pushToPull } from "../core/push-to-pull.js";
import { parseJsonText, parseResponse } from "../core/validate.js";
import {
  type PaasTeam,
  paasTeam,
  type UsageEntry,
  type UsageListQuery,
  type UsageListResponse,
  usageEntry,
  usageListQuery,
  usageListResponse,
} from "../schemas/billing.js";
import { MAX_ANSWER_BYTES, megabytes, tooLargeError } from "../transport/answer-size.js";
import { IncompleteListError } from "../transport/errors.js";

// The usage list read as its body arrives (see `Billing.streamUsageParts`): pieces split from the
// bytes, each parsed and checked once complete, pages followed by cursor.

/** What a streamed read says of each page once its entries were handed over. */
export interface UsagePageRead {
  /** The page without its entries: currency, scope, pagination. */
  page: UsageListResponse;
  /** Entries on the page. */
  entries: number;
  /** Pages read so far, this one included. */
  pages: number;
}

/**
 * How deep into each team a streamed read goes, by the drill-down's levels: `teams` (each team's
 * amounts, without its `projects`), `projects` (with them, each without its `resources`), or
 * `resources` (everything, the default). What lies deeper is passed over unparsed as the body
 * arrives, and is absent from the parts: a report by team or project reads a small part of
 * each entry, whose resources are most of its bytes.
 */
export type UsageLevel = "teams" | "projects" | "resources";

export type StreamOptions = CallOptions & { onPage?: (read: UsagePageRead) => void; level?: UsageLevel };

type Node = Record<string, unknown>;
const nodes = (value: unknown): Node[] =>
  Array.isArray(value) ? value.filter((v): v is Node => typeof v === "object" && v !== null) : [];

/**
 * What each level leaves out of a team: the array the splitter passes over (by its depth in the
 * team, see `SkippedArray`), and the member taken from the parsed team. The arrays passed over
 * arrive empty, and one whose key came at the end of the chunk before arrives whole: both go, so
 * that a part never depends on where the body's chunks fell.
 */
const LEFT_OUT: Record<UsageLevel, { skip: SkippedArray; cut: (team: Node) => void } | undefined> = {
  teams: { skip: { key: "projects", depth: 2 }, cut: (team) => delete team.projects },
  projects: {
    skip: { key: "resources", depth: 4 },
    cut: (team) => {
      for (const project of nodes(team.projects)) delete project.resources;
    },
  },
  resources: undefined,
};

/** A piece of a usage entry, in the order of the body. */
export type UsagePart =
  /** The entry's members before `paas.teams` (its window, when the platform sends it first); not yet checked. */
  | { kind: "head"; window: UsageEntry["window"]; timestamp: number | undefined }
  | { kind: "team"; team: PaasTeam }
  | { kind: "entry"; entry: UsageEntry };

/**
 * What identifies a usage entry in its list: its bucket, the hour's timestamp or the window. An
 * entry with neither (the one of `total`) is identified by the whole of it.
 */
export function usageIdentity(entry: UsageEntry): string {
  return bucketOf(entry) ?? JSON.stringify(entry);
}

/** An entry's (or an entry's head's) bucket, where it has one. */
const bucketOf = (entry: Partial<Pick<UsageEntry, "timestamp" | "window">>) =>
  entry.timestamp === undefined && entry.window === undefined
    ? undefined
    : JSON.stringify([entry.timestamp ?? null, entry.window?.start ?? null, entry.window?.end ?? null]);

const PATH = "/v1/billing/usage";
const at = (field?: string) => ({ method: "GET", path: PATH, status: 200, ...(field ? { field } : {}) });
const windowPart = usageEntry.shape.window;

/** The head of an entry: its window and timestamp where they came before the teams. */
function headPart(text: string): UsagePart {
  const head = parseJsonText(text, at("data.usage")) as { window?: unknown; timestamp?: unknown };
  const window = windowPart.safeParse(head.window);
  return {
    kind: "head",
    window: window.success ? window.data : undefined,
    timestamp: typeof head.timestamp === "number" ? head.timestamp : undefined,
  };
}

export async function* usageParts(
  core: Core,
  query: UsageListQuery,
  options: StreamOptions,
): AsyncGenerator<UsagePart> {
  const leftOut = LEFT_OUT[options.level ?? "resources"];
  let cursor = query.cursor;
  const walk = core.walk(PATH, options);
  walk.begin(cursor);
  for (let pages = 1; ; pages++) {
    const q = core.check(usageListQuery, { ...query, ...(cursor ? { cursor } : {}) }, "GET", PATH, "query");
    /** Pieces of this page handed over: a retried attempt reads the page again and skips them. */
    let delivered = 0;
    let entries = 0;
    /** Entries on the page, those read before too: with `first`, what tells it from the page before. */
    let served = 0;
    /** The page's first entry's time: with `served`, what tells this page from the one before. */
    let first: string | undefined;
    /**
     * The entry being read: left out when its head names a bucket read before (the list gained
     * entries at its head between pages, `PageWalk.firstSeen`); its identity once known.
     */
    const current = { skip: false, identity: undefined as string | undefined };
    const page: UsageListResponse = yield* pushToPull<UsagePart, UsageListResponse>((push, signal) =>
      core.call(
        {
          method: "GET",
          path: PATH,
          query: q,
          response: usageListResponse,
          readBody: async (body) => {
            // Memory holds one piece of the page (an entry, a team, the page without its entries):
            // each may hold what one answer read whole may.
            const splitter = new JsonArraySplitter(["data", "usage"], {
              inner: ["paas", "teams"],
              maxPieceBytes: MAX_ANSWER_BYTES,
              ...(leftOut ? { skip: leftOut.skip } : {}),
            });
            const position = { piece: 0, entry: 0, team: 0 };
            for await (const chunk of body)
              for (const piece of split(splitter, chunk)) {
                const part = position.piece < delivered ? undefined : toPart(piece, position, leftOut?.cut);
                advance(position, piece);
                if (!part) continue;
                if (part.kind === "head") {
                  first ??= JSON.stringify([part.timestamp, part.window]);
                  current.identity = bucketOf(part);
                  current.skip = current.identity !== undefined && !walk.firstSeen(current.identity);
                }
                if (
                  part.kind === "entry" &&
                  current.identity === undefined &&
                  !walk.firstSeen(usageIdentity(part.entry))
                )
                  throw repeatedAfterItsParts(part.entry);
                if (!current.skip) await push(part);
                delivered += 1;
                if (part.kind === "entry") {
                  served += 1;
                  if (!current.skip) entries += 1;
                  current.skip = false;
                  current.identity = undefined;
                }
              }
            return parseJsonText(splitter.end(), at());
          },
        },
        withSignal(options, signal),
      ),
    );
    options.onPage?.({ page, entries, pages });
    cursor = page.pagination?.cursor ?? undefined;
    // A page equal to the one before was handed over all the same (its entries came as they were
    // read): the reader gets a warning and no third.
    // An empty page is told from the one before by the cursor it hands on.
    if (!walk.fresh(served === 0 ? `0:${cursor}` : `${served}:${first}`)) return;
    // Only the platform's "no next page" ends the list (`PageWalk.goOn`).
    if (!walk.goOn(page.pagination?.hasNextPage, cursor)) return;
  }
}

/**
 * An entry read before, known as one only at its end (its bucket came after its teams): its parts
 * were handed over already, so the read cannot go on whole.
 */
function repeatedAfterItsParts(entry: UsageEntry): IncompleteListError {
  return new IncompleteListError(
    `GET ${PATH} gave the bucket ${usageIdentity(entry)} again on a later page (the list changed while it was read), after its teams were handed over: the list could not be read whole, so nothing was written from it.`,
    { method: "GET", path: PATH },
  );
}

function split(splitter: JsonArraySplitter, chunk: Uint8Array): SplitPiece[] {
  try {
    return splitter.write(chunk);
  } catch (error) {
    if (!(error instanceof PieceTooLargeError)) throw error;
    // Not retried: the same page would bring the same piece.
    throw tooLargeError(
      at(),
      `over ${megabytes(error.limit)}`,
      error.kind === "element" ? "entry" : "page besides its entries",
    );
  }
}

function toPart(
  piece: SplitPiece,
  position: { entry: number; team: number },
  cut: ((team: Node) => void) | undefined,
): UsagePart {
  const entryAt = `data.usage.${position.entry}`;
  switch (piece.kind) {
    case "head":
      return headPart(piece.text);
    case "inner": {
      const where = at(`${entryAt}.paas.teams.${position.team}`);
      const team = parseJsonText(piece.text, where);
      if (cut && typeof team === "object" && team !== null) cut(team as Node);
      return { kind: "team", team: parseResponse(paasTeam, team, where) };
    }
    case "element":
      return {
        kind: "entry",
        entry: parseResponse(usageEntry, parseJsonText(piece.text, at(entryAt)), at(entryAt)),
      };
  }
}

function advance(position: { piece: number; entry: number; team: number }, piece: SplitPiece): void {
  position.piece += 1;
  if (piece.kind === "inner") position.team += 1;
  if (piece.kind === "element") {
    position.entry += 1;
    position.team = 0;
  }
}

/** Whole entries from parts: each entry's teams gathered back into it (memory: one entry). */
export async function* wholeEntries(parts: AsyncIterable<UsagePart>): AsyncGenerator<UsageEntry> {
  let teams: PaasTeam[] = [];
  for await (const part of parts) {
    if (part.kind === "team") teams.push(part.team);
    if (part.kind !== "entry") continue;
    const { entry } = part;
    if (entry.paas.teams !== undefined) entry.paas.teams = teams;
    teams = [];
    yield entry;
  }
}
