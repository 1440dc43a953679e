import type { PaasTeam, UsageEntry, UsageLevel, UsagePart } from "@cwp/client";
import type { Granularity } from "./collect.js";
import { ReportDataError } from "./errors.js";
import { type GroupBy, levelRead, RowTable } from "./group.js";
import { type CsvContext, csvBucketLines } from "./render/csv.js";
import { type FocusContext, type FocusPeriod, millis } from "./render/focus/parts.js";
import { FocusRows, type FocusSink } from "./render/focus/rows.js";
import type { LineFile } from "./render/line-file.js";
import { type TrendPoint, trendPoint } from "./report.js";

// The trend, folded as it is read, a bucket at a time: each team into the bucket's rows and its
// FOCUS rows, then at the bucket's end its report.csv rows, and only its total and the shown
// groups' rows kept for the other formats.
//
// The trend is read alongside the names and the current totals, not after them (a large
// organisation's names are pages read one after the other). Labelling and writing a bucket need
// what those say, so buckets that end before then wait, folded, up to WAITING_ROWS rows; past that,
// reading waits.

/** What labelling and writing a bucket needs: known once the names and the current totals are in. */
export interface TrendContext extends FocusContext {
  /** The groups the report shows by name: a bucket keeps only their rows. */
  keep: Set<string>;
}

/** Rows of buckets held folded until the context is known: a few buckets of a large organisation. */
const WAITING_ROWS = 20_000;

export class TrendFold {
  readonly points: TrendPoint[] = [];
  #bucket: RowTable;
  /** The FOCUS charge period, once the bucket's head says it. */
  #charged: FocusPeriod | undefined;
  /** Teams that came before the bucket's window (a platform that sends it last): written at its end. */
  #held: PaasTeam[] = [];
  /** Entries read so far, to name one whose times do not parse. */
  #entries = 0;
  #context: TrendContext | undefined;
  #csv: CsvContext | undefined;
  #focus: FocusRows | undefined;
  /** Buckets that ended before the context was known, oldest first. */
  #waiting: { entry: UsageEntry; rows: RowTable }[] = [];
  #waitingRows = 0;

  constructor(
    private readonly o: {
      granularity: Granularity;
      groupBy: GroupBy;
      context: Promise<TrendContext>;
      csv: LineFile | undefined;
      /** The FOCUS files asked for (focus.csv, focus.parquet): none, one or both. */
      focus: readonly FocusSink[];
    },
  ) {
    this.#bucket = new RowTable(o.groupBy);
    // Its failure is reported where the reads it comes from are awaited; here it must not count
    // as unhandled.
    o.context.catch(() => {});
  }

  /** How deep it reads each team: the FOCUS dataset has a row for every resource. */
  get level(): UsageLevel {
    return this.o.focus.length > 0 ? "resources" : levelRead(this.o.groupBy);
  }

  async add(part: UsagePart): Promise<void> {
    // FOCUS rows are written team by team, and name their projects: they wait for the context.
    if (this.o.focus.length > 0 && !this.#context) await this.#ready();
    if (part.kind === "head") {
      if (part.window !== undefined || part.timestamp !== undefined) {
        checkTimes(part, this.#entries + 1);
        this.#charged = this.#focus?.period(part);
      }
      return;
    }
    if (part.kind === "team") {
      this.#bucket.addTeam(part.team);
      if (this.#focus && this.#charged) await this.#focus.team(part.team, this.#charged);
      else if (this.#focus) this.#held.push(part.team);
      return;
    }
    const { entry } = part;
    this.#entries += 1;
    checkTimes(entry, this.#entries);
    const rows = this.#bucket.add(entry);
    if (this.#focus) {
      const charged = this.#charged ?? this.#focus.period(entry);
      for (const team of this.#held) await this.#focus.team(team, charged);
      await this.#focus.customer(entry, charged);
    }
    this.#bucket = new RowTable(this.o.groupBy);
    this.#charged = undefined;
    this.#held = [];
    if (!this.#context && this.#waitingRows + rows.size <= WAITING_ROWS) {
      this.#waiting.push({ entry, rows });
      this.#waitingRows += rows.size;
      return;
    }
    await this.#ready();
    await this.#write(entry, rows);
  }

  /** After the last part: the buckets still waiting are written. */
  async finish(): Promise<void> {
    await this.#ready();
  }

  async #ready(): Promise<void> {
    if (this.#context) return;
    const context = await this.o.context;
    this.#context = context;
    this.#csv = { granularity: this.o.granularity, groupBy: this.o.groupBy, currency: context.currency };
    this.#focus = this.o.focus.length > 0 ? new FocusRows(this.o.focus, context) : undefined;
    for (const { entry, rows } of this.#waiting) await this.#write(entry, rows);
    this.#waiting = [];
    this.#waitingRows = 0;
  }

  async #write(entry: UsageEntry, table: RowTable): Promise<void> {
    const context = this.#context as TrendContext;
    const rows = table.labelled(context.names);
    const point = trendPoint(entry, rows, context.keep);
    this.points.push(point);
    await this.o.csv?.writeAll(csvBucketLines(point, rows.values(), this.#csv as CsvContext));
  }
}

/**
 * An entry's window and timestamp are times, whatever the format asked for: one the platform sent
 * as text that does not parse stops the report, naming the entry and the field; so does an entry
 * with neither (its bucket is no time at all).
 */
function checkTimes(at: Pick<UsageEntry, "window" | "timestamp">, entry: number): void {
  if (at.window?.start === undefined && at.timestamp === undefined)
    throw new ReportDataError(
      `The platform's usage entry ${entry} has neither a window nor a timestamp, so its bucket has no time: the report stops here.`,
    );
  const times = { "window.start": at.window?.start, "window.end": at.window?.end, timestamp: at.timestamp };
  for (const [field, value] of Object.entries(times))
    if (value !== undefined && !Number.isFinite(millis(value)))
      throw new ReportDataError(
        `The platform's usage entry ${entry} has a ${field} that is not a time (${JSON.stringify(String(value).slice(0, 40))}): the report stops here.`,
      );
}
