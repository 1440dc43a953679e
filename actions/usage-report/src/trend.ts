import type { PaasTeam, UsagePart } from "@cwp/client";
import type { Granularity, GroupBy } from "./collect.js";
import { RowTable } from "./group.js";
import { csvBucketLines } from "./render/csv.js";
import { type FocusPeriod, FocusWriter } from "./render/focus.js";
import type { LineFile } from "./render/line-file.js";
import { type TrendPoint, trendPoint } from "./report.js";

// The trend, folded as it is read, a bucket at a time: each team into the bucket's rows and its
// focus.csv rows, then at the bucket's end its report.csv rows, and only its total and the shown
// groups' rows kept for the other formats.

export class TrendFold {
  readonly points: TrendPoint[] = [];
  #bucket: RowTable;
  /** focus.csv's charge period, once the bucket's head says it. */
  #charged: FocusPeriod | undefined;
  /** Teams that came before the bucket's window (a platform that sends it last): written at its end. */
  #held: PaasTeam[] = [];
  readonly #focus: FocusWriter | undefined;

  constructor(
    private readonly o: {
      granularity: Granularity;
      groupBy: GroupBy;
      names: Map<string, string>;
      currency: string;
      accountId: string;
      /** The groups the report shows by name: a bucket keeps only their rows. */
      keep: Set<string>;
      csv: LineFile | undefined;
      focus: LineFile | undefined;
    },
  ) {
    this.#bucket = new RowTable(o.groupBy);
    this.#focus =
      o.focus && new FocusWriter(o.focus, { currency: o.currency, accountId: o.accountId, names: o.names });
  }

  async add(part: UsagePart): Promise<void> {
    if (part.kind === "head") {
      if (part.window !== undefined || part.timestamp !== undefined)
        this.#charged = this.#focus?.period(part);
      return;
    }
    if (part.kind === "team") {
      this.#bucket.addTeam(part.team);
      if (this.#focus && this.#charged) await this.#focus.team(part.team, this.#charged);
      else if (this.#focus) this.#held.push(part.team);
      return;
    }
    const { entry } = part;
    const rows = this.#bucket.add(entry).labelled(this.o.names);
    const point = trendPoint(entry, rows, this.o.keep);
    this.points.push(point);
    await this.o.csv?.writeAll(csvBucketLines(point, rows.values(), this.o));
    if (this.#focus) {
      const charged = this.#charged ?? this.#focus.period(entry);
      for (const team of this.#held) await this.#focus.team(team, charged);
      await this.#focus.customer(entry, charged);
    }
    this.#bucket = new RowTable(this.o.groupBy);
    this.#charged = undefined;
    this.#held = [];
  }
}
